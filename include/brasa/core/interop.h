#pragma once
// Inter-op parallelism: a pool of threads that runs independent tasks (libtorch's at::launch), as
// opposed to the intra-op threads that split one op's loop (parallel.h).

#include <functional>

#include "brasa/core/macros.h"

namespace brasa {

/// Threads of the inter-op pool. Throws ValueError for n < 1 and RuntimeError once the pool has
/// started or the number was already set (libtorch's rules: the pool is sized once).
BRASA_API void set_num_interop_threads(int n);
/// The pool's size: the number set, else the number of cores.
BRASA_API int get_num_interop_threads();
/// Runs fn on the inter-op pool and returns at once. The pool starts on the first call. An
/// exception fn throws is reported as a warning (it has no caller to reach). Thread-local modes
/// (grad mode, inference mode) are not carried into the task.
BRASA_API void launch(std::function<void()> fn);
/// libtorch's per-thread OpenMP initialisation; brasa's intra-op threads need none.
inline void init_num_threads() {}

}  // namespace brasa
