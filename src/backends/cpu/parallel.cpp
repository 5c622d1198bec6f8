#include "brasa/core/parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "brasa/core/error.h"

namespace brasa {
namespace {
std::atomic<int> g_num_threads{0};
// Note [Initial-exec TLS] (in src/dispatch/grad_mode.cpp)
thread_local bool t_in_parallel __attribute__((tls_model("initial-exec"))) = false;
}  // namespace

void set_num_threads(int n) {
  BRASA_CHECK(n > 0, "set_num_threads: expected a positive number of threads, got ", n);
  g_num_threads = n;
  omp_set_num_threads(n);
}

int get_num_threads() {
  int n = g_num_threads.load(std::memory_order_relaxed);
  if (n == 0) {
    n = omp_get_max_threads();
    g_num_threads = n;
  }
  return n;
}

bool in_parallel_region() { return t_in_parallel || omp_in_parallel(); }

void detail::parallel_for_impl(int64_t begin, int64_t end, int64_t grain,
                               void (*fn)(int64_t, int64_t, void*), void* ctx) {
  int64_t range = end - begin;
  int64_t max_chunks = (range + grain - 1) / std::max<int64_t>(grain, 1);
  int nthreads = static_cast<int>(std::min<int64_t>(get_num_threads(), max_chunks));
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(nthreads)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    int64_t chunk = (range + nt - 1) / nt;
    int64_t b = begin + tid * chunk, e = std::min(end, b + chunk);
    if (b < e) {
      t_in_parallel = true;
      try {
        fn(b, e, ctx);
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
      }
      t_in_parallel = false;
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace brasa
