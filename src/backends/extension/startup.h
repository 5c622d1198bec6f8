#pragma once
// Hooks of the core into the backend registry (src/backend), for code below it.

namespace brasa::detail {
/// Loads the BRASA_BACKENDS libraries the first time it is called; true when that call (or an
/// earlier one) loaded at least one library.
bool load_startup_backends();
/// Records that a PrivateUse1 tensor or device exists (Note [PrivateUse1 name]).
void mark_privateuse1_used();
}  // namespace brasa::detail
