#pragma once
// Autograd's switches: grad mode and inference mode (brasa/dispatch/grad_mode.h, re-exported here)
// and anomaly mode.

#include "brasa/dispatch/grad_mode.h"

namespace brasa {

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
