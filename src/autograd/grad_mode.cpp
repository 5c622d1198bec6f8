#include "brasa/autograd/grad_mode.h"

namespace brasa::autograd {
namespace {
bool g_anomaly = false;
}  // namespace

bool AnomalyMode::is_enabled() { return g_anomaly; }
void AnomalyMode::set_enabled(bool enabled) { g_anomaly = enabled; }
DetectAnomalyGuard::DetectAnomalyGuard() : prev_(g_anomaly) { g_anomaly = true; }
DetectAnomalyGuard::~DetectAnomalyGuard() { g_anomaly = prev_; }

}  // namespace brasa::autograd
