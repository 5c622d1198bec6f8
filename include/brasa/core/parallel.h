#pragma once
// Intra-op parallelism: a parallel_for over index ranges with a grain size, backed by OpenMP.

#include <cstdint>
#include <functional>

#include "brasa/core/macros.h"

namespace brasa {

/// Threads used by intra-op parallel loops (default: the number of cores).
BRASA_API void set_num_threads(int n);
BRASA_API int get_num_threads();
/// True inside a parallel region (nested parallel_for calls run serially).
BRASA_API bool in_parallel_region();

namespace detail {
BRASA_API void parallel_for_impl(int64_t begin, int64_t end, int64_t grain,
                                 void (*fn)(int64_t, int64_t, void*), void* ctx);
template <typename F>
[[gnu::noinline]] void run_chunk(int64_t begin, int64_t end, void* ctx) {
  (*static_cast<const F*>(ctx))(begin, end);
}
}  // namespace detail

/// Calls f(chunk_begin, chunk_end) over [begin, end) split into chunks of at least `grain` items,
/// running chunks on up to get_num_threads() threads. Serial when the range is below grain.
// Both paths call f through one out-of-line function, so that a kernel's loop body is compiled
// once rather than once inlined here and once in the threads' trampoline.
template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (end <= begin) return;
  void (*run)(int64_t, int64_t, void*) = &detail::run_chunk<F>;
  if (end - begin <= grain || get_num_threads() == 1 || in_parallel_region()) {
    run(begin, end, const_cast<F*>(&f));
    return;
  }
  detail::parallel_for_impl(begin, end, grain, run, const_cast<F*>(&f));
}

}  // namespace brasa
