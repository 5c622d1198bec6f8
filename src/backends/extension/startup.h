#pragma once
// The backend registry's side of Note [Core hooks] (src/core/device_hooks.h).

namespace brasa::detail {
/// Loads the BRASA_BACKENDS libraries the first time it is called; true when that call (or an
/// earlier one) loaded at least one library.
bool load_startup_backends();
}  // namespace brasa::detail
