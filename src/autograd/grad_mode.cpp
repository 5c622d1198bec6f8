#include "brasa/autograd/grad_mode.h"

namespace brasa::autograd {
namespace {
bool g_anomaly = false;
bool g_check_nan = true;
}  // namespace

bool AnomalyMode::is_enabled() { return g_anomaly; }
bool AnomalyMode::should_check_nan() { return g_check_nan; }
void AnomalyMode::set_enabled(bool enabled, bool check_nan) {
  g_anomaly = enabled;
  g_check_nan = check_nan;
}
DetectAnomalyGuard::DetectAnomalyGuard(bool check_nan)
    : prev_(g_anomaly), prev_check_nan_(g_check_nan) {
  AnomalyMode::set_enabled(true, check_nan);
}
DetectAnomalyGuard::~DetectAnomalyGuard() { AnomalyMode::set_enabled(prev_, prev_check_nan_); }

}  // namespace brasa::autograd
