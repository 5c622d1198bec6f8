#pragma once
// Note [Core hooks]
// core sits below the backend registry (src/backends/extension) but must reach it for what a plugin
// provides: a device name that a BRASA_BACKENDS library defines, and storage on a PrivateUse1
// device. The registry installs these hooks at load time, so core never includes a higher layer.

#include <cstddef>

#include "brasa/core/allocator.h"

namespace brasa::detail {

struct CoreHooks {
  /// Loads the BRASA_BACKENDS libraries once; true when one was loaded (by this call or earlier).
  bool (*load_startup_backends)() = nullptr;
  /// Allocates `nbytes` on a PrivateUse1 device made current for the call; an index-less `device`
  /// becomes the current device. Sets `allocator` to the allocator used.
  DataPtr (*allocate_privateuse1)(Device& device, size_t nbytes, Allocator*& allocator) = nullptr;
  /// Told when user code reads a tensor's values (`what`: "item", "print"); the compile tracer
  /// (src/compile) installs it to see graph breaks (Note [Graph breaks] in src/compile/trace.cpp).
  void (*observe_data)(const char* what) = nullptr;
  /// Computes the calling thread's pending fused-eager results (Note [Fused eager] in
  /// src/compile/fused_eager.cpp) before raw memory is read: installed by libbrasa_compile when
  /// fused eager is first enabled.
  void (*flush_pending)() = nullptr;
};
/// The hooks (all null until the backend registry installs them).
CoreHooks& core_hooks();

/// Installs CoreHooks::observe_data (exported: libbrasa_compile installs it at load time).
BRASA_API void set_observe_data_hook(void (*hook)(const char* what));
/// Calls CoreHooks::observe_data when one is installed.
inline void observe_data(const char* what) {
  if (auto* hook = core_hooks().observe_data) hook(what);
}

/// Installs CoreHooks::flush_pending (exported for libbrasa_compile).
BRASA_API void set_flush_pending_hook(void (*hook)());
/// Calls CoreHooks::flush_pending when one is installed: every path that reads a tensor's memory
/// outside a dispatched kernel (typed data_ptr, item, autograd hooks, saving) calls it first.
BRASA_API void flush_pending();

/// core_hooks().load_startup_backends, or false when none is installed.
bool load_startup_backends_hook();

/// Records that a PrivateUse1 tensor or device exists (Note [PrivateUse1 name]).
void mark_privateuse1_used();

}  // namespace brasa::detail
