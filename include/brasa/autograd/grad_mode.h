#pragma once
// Autograd's switches: grad mode and inference mode (brasa/dispatch/grad_mode.h, re-exported here)
// and anomaly mode.

#include "brasa/dispatch/grad_mode.h"

namespace brasa {

namespace autograd {

/// Anomaly detection: backward checks every gradient for NaN/Inf (unless check_nan is false) and
/// names the forward op.
struct BRASA_API AnomalyMode {
  static bool is_enabled();
  static bool should_check_nan();
  static void set_enabled(bool enabled, bool check_nan = true);
};

/// RAII: turns anomaly mode on for its lifetime (torch::autograd::DetectAnomalyGuard), checking
/// gradients for NaN unless check_nan is false.
class BRASA_API DetectAnomalyGuard {
 public:
  explicit DetectAnomalyGuard(bool check_nan = true);
  ~DetectAnomalyGuard();
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool prev_;
  bool prev_check_nan_;
};

}  // namespace autograd

}  // namespace brasa
