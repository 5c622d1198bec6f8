#include "brasa/core/parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "brasa/core/error.h"

// Note [OpenMP under ThreadSanitizer]
// GCC's libgomp is not instrumented: ThreadSanitizer does not see the fork of a parallel region
// (the caller's writes before it happen before every thread's chunk) nor its closing barrier (every
// chunk happens before the caller goes on), and reports the caller's and the threads' accesses to
// the same memory (inputs, outputs, the caller's stack reused by the next call) as races. Under
// -fsanitize=thread parallel_for_impl states both edges itself: the caller releases `fork_edge`
// before the region and each thread acquires it before its chunk; each thread releases `join_edge`
// after its chunk and the caller acquires it after the region. Two chunks are still unordered with
// each other, so races between chunks are still found. Other builds compile none of it.
#if defined(__SANITIZE_THREAD__)
#define BRASA_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BRASA_TSAN 1
#endif
#endif
#ifdef BRASA_TSAN
#include <sanitizer/tsan_interface.h>
#define BRASA_TSAN_RELEASE(addr) __tsan_release(addr)
#define BRASA_TSAN_ACQUIRE(addr) __tsan_acquire(addr)
#define BRASA_NO_SANITIZE_THREAD __attribute__((no_sanitize("thread")))
#else
#define BRASA_TSAN_RELEASE(addr) ((void)(addr))
#define BRASA_TSAN_ACQUIRE(addr) ((void)(addr))
#define BRASA_NO_SANITIZE_THREAD
#endif

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

// Not instrumented itself: the region's shared-variable block, which the caller fills on its stack
// after the fork edge and each thread reads before it, is libgomp's business. The chunks (fn) are
// instrumented as everywhere else.
BRASA_NO_SANITIZE_THREAD void detail::parallel_for_impl(int64_t begin, int64_t end, int64_t grain,
                                                        void (*fn)(int64_t, int64_t, void*),
                                                        void* ctx) {
  int64_t range = end - begin;
  int64_t max_chunks = (range + grain - 1) / std::max<int64_t>(grain, 1);
  int nthreads = static_cast<int>(std::min<int64_t>(get_num_threads(), max_chunks));
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  char fork_edge = 0, join_edge = 0;  // Note [OpenMP under ThreadSanitizer]
  BRASA_TSAN_RELEASE(&fork_edge);
#pragma omp parallel num_threads(nthreads)
  {
    BRASA_TSAN_ACQUIRE(&fork_edge);
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
    BRASA_TSAN_RELEASE(&join_edge);
  }
  BRASA_TSAN_ACQUIRE(&join_edge);
  if (error) std::rethrow_exception(error);
}

}  // namespace brasa
