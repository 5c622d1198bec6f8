#pragma once
// The thread's dispatch key adjustments (Note [Dispatch] in dispatcher.h): the keys every op call
// on this thread adds (included) and removes (excluded), and the guards that change them for a
// scope. Apart from the dispatcher so that grad mode and autocast, which are this state, do not
// bring the dispatcher's templates into every program that includes them.

#include "brasa/core/dispatch_key.h"
#include "brasa/core/macros.h"

namespace brasa {

/// Per-thread key adjustments (no_grad excludes Autograd, a tracer includes Trace, ...).
struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};
BRASA_API extern thread_local LocalDispatchKeySet tls_dispatch_keys
    __attribute__((tls_model("initial-exec")));

/// RAII: adds keys to the thread's excluded set for the guard's lifetime.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys) : saved_(tls_dispatch_keys.excluded) {
    tls_dispatch_keys.excluded = saved_ | keys;
  }
  explicit ExcludeDispatchKeyGuard(DispatchKey k) : ExcludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~ExcludeDispatchKeyGuard() { tls_dispatch_keys.excluded = saved_; }
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet saved_;
};

/// RAII: adds keys to the thread's included set for the guard's lifetime.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys) : saved_(tls_dispatch_keys.included) {
    tls_dispatch_keys.included = saved_ | keys;
  }
  explicit IncludeDispatchKeyGuard(DispatchKey k) : IncludeDispatchKeyGuard(DispatchKeySet(k)) {}
  ~IncludeDispatchKeyGuard() { tls_dispatch_keys.included = saved_; }
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet saved_;
};

}  // namespace brasa
