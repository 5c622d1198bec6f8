#include "brasa/dispatch/grad_mode.h"

namespace brasa {
namespace {
thread_local bool t_grad_enabled = true;
thread_local bool t_inference = false;

void apply_mode(bool enabled) {
  t_grad_enabled = enabled;
  DispatchKeySet ex = tls_dispatch_keys.excluded;
  tls_dispatch_keys.excluded =
      enabled ? ex.remove(DispatchKey::Autograd) : ex.add(DispatchKey::Autograd);
}
}  // namespace

bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { apply_mode(enabled); }
void set_grad_enabled(bool enabled) { apply_mode(enabled); }
bool is_grad_enabled() { return t_grad_enabled; }

AutoGradMode::AutoGradMode(bool enabled)
    : prev_mode_(t_grad_enabled), prev_excluded_(tls_dispatch_keys.excluded) {
  apply_mode(enabled);
}
AutoGradMode::~AutoGradMode() {
  t_grad_enabled = prev_mode_;
  tls_dispatch_keys.excluded = prev_excluded_;
}

InferenceMode::InferenceMode(bool enabled) : grad_(!enabled && t_grad_enabled), prev_(t_inference) {
  t_inference = enabled;
}
InferenceMode::~InferenceMode() { t_inference = prev_; }
bool InferenceMode::is_enabled() { return t_inference; }

}  // namespace brasa
