// The allocator registry: one allocator per device type. Backends register theirs at load time (the
// CPU caching allocator in backends/cpu, a plugin's through brasa::backend::register_allocator).
#include "brasa/core/allocator.h"

#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa {
namespace {
constinit Allocator* g_allocators[16] = {};
}  // namespace

namespace detail {
CoreHooks& core_hooks() {
  static constinit CoreHooks hooks;
  return hooks;
}
void set_observe_data_hook(void (*hook)(const char* what)) { core_hooks().observe_data = hook; }
void set_flush_pending_hook(void (*hook)()) { core_hooks().flush_pending = hook; }
void flush_pending() {
  if (auto* hook = core_hooks().flush_pending) hook();
}
bool load_startup_backends_hook() {
  auto* load = core_hooks().load_startup_backends;
  return load != nullptr && load();
}
}  // namespace detail

Allocator* get_allocator(DeviceType t) {
  const int i = static_cast<int>(t);
  if (t == kPrivateUse1) {
    detail::mark_privateuse1_used();
    if (!g_allocators[i]) detail::load_startup_backends_hook();
  }
  BRASA_CHECK_NOT_IMPLEMENTED(g_allocators[i] != nullptr, "no allocator registered for device ",
                              device_type_name(t),
                              t == kPrivateUse1 ? " (load its backend with brasa::backend::"
                                                  "load_backend or BRASA_BACKENDS)"
                              : t == kCUDA      ? " (brasa has no CUDA backend, as libtorch built "
                                                  "without CUDA: torch::cuda::is_available() is false)"
                                                : "");
  return g_allocators[i];
}

void set_allocator(DeviceType t, Allocator* allocator) {
  g_allocators[static_cast<int>(t)] = allocator;
}

}  // namespace brasa
