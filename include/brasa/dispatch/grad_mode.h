#pragma once
// Thread-local grad mode (NoGradGuard, AutoGradMode, set_grad_enabled) and inference mode. Turning
// grad mode off also excludes the Autograd dispatch key, so ops skip the autograd layer entirely:
// these switches are the thread's dispatch state, which is why they live in the dispatch layer
// (like c10::GradMode in libtorch's core), below the ops that consult them.

#include <initializer_list>

#include "brasa/core/tensor.h"
#include "brasa/dispatch/local_dispatch_keys.h"

namespace brasa {

/// Whether operations are being recorded for autograd on this thread.
struct BRASA_API GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// RAII: sets grad mode (and the matching Autograd key exclusion), restoring both on exit.
class BRASA_API AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled);
  ~AutoGradMode();
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_mode_;
  DispatchKeySet prev_excluded_;
};

/// RAII: disables gradient recording (libtorch's torch::NoGradGuard).
class BRASA_API NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

/// Sets grad mode for the rest of the thread (torch.set_grad_enabled).
BRASA_API void set_grad_enabled(bool enabled);
BRASA_API bool is_grad_enabled();

/// RAII inference mode: no recording, like NoGradGuard; `InferenceMode::is_enabled()` reports it.
class BRASA_API InferenceMode {
 public:
  explicit InferenceMode(bool enabled = true);
  ~InferenceMode();
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;
  static bool is_enabled();

 private:
  AutoGradMode grad_;
  bool prev_;
};

/// Whether an op on `ts` would be recorded for autograd: grad mode is on and one of them (undefined
/// ones skipped) requires grad. Composite ops use it to pick a differentiable formulation.
inline bool will_record_grad(std::initializer_list<const Tensor*> ts) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor* t : ts)
    if (t->defined() && t->requires_grad()) return true;
  return false;
}

}  // namespace brasa
