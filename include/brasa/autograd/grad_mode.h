#pragma once
// Thread-local autograd switches: grad mode (NoGradGuard, AutoGradMode, set_grad_enabled),
// inference mode and anomaly mode. Turning grad mode off also excludes the Autograd dispatch key,
// so ops skip the autograd layer entirely.

#include "brasa/dispatch/dispatcher.h"

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

namespace autograd {

/// Anomaly detection: backward checks every gradient for NaN/Inf and names the forward op.
struct BRASA_API AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// RAII: turns anomaly mode on for its lifetime (torch::autograd::DetectAnomalyGuard).
class BRASA_API DetectAnomalyGuard {
 public:
  DetectAnomalyGuard();
  ~DetectAnomalyGuard();
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool prev_;
};

}  // namespace autograd
}  // namespace brasa
