#include "brasa/dispatch/grad_mode.h"

#include "dispatch/inplace_name.h"
#include "dispatch/node_name.h"

namespace brasa {
namespace {
// Note [Initial-exec TLS]
// Every thread_local of libbrasa uses the initial-exec model. With some variables initial-exec
// (the object pool, the allocator's cache, the dispatch keys), gold (the release link, Note
// [Library size]) turns the general-dynamic accesses of the others into initial-exec ones with
// wrong offsets (R_X86_64_TPOFF64 relocations without a symbol): the grad-mode flag shared its
// bytes with the head of the object pool's free list, and a program that ran backward crashed at
// exit. That flag lives in core (detail::grad_mode_enabled): a view records the mode it was made
// in (Note [View creation meta]).

void apply_mode(bool enabled) {
  detail::set_grad_mode_enabled(enabled);
  DispatchKeySet ex = tls_dispatch_keys.excluded;
  tls_dispatch_keys.excluded =
      enabled ? ex.remove(DispatchKey::Autograd) : ex.add(DispatchKey::Autograd);
}
}  // namespace

bool GradMode::is_enabled() { return detail::grad_mode_enabled(); }
void GradMode::set_enabled(bool enabled) { apply_mode(enabled); }
void set_grad_enabled(bool enabled) { apply_mode(enabled); }
bool is_grad_enabled() { return detail::grad_mode_enabled(); }

AutoGradMode::AutoGradMode(bool enabled)
    : prev_mode_(detail::grad_mode_enabled()), prev_excluded_(tls_dispatch_keys.excluded) {
  apply_mode(enabled);
}
AutoGradMode::~AutoGradMode() {
  detail::set_grad_mode_enabled(prev_mode_);
  tls_dispatch_keys.excluded = prev_excluded_;
}

InferenceMode::InferenceMode(bool enabled)
    : grad_(!enabled && detail::grad_mode_enabled()), prev_(detail::inference_mode_enabled()) {
  detail::set_inference_mode_enabled(enabled);
}
InferenceMode::~InferenceMode() { detail::set_inference_mode_enabled(prev_); }
bool InferenceMode::is_enabled() { return detail::inference_mode_enabled(); }

namespace autograd {
const char*& next_node_name() {  // Note [Overload node names] (dispatch/node_name.h)
  static thread_local const char* name = nullptr;
  return name;
}
const char*& inplace_name_override() {  // Note [In-place op names] (dispatch/inplace_name.h)
  static thread_local const char* name = nullptr;
  return name;
}
}  // namespace autograd

}  // namespace brasa
