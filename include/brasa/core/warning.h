#pragma once
// Warnings: brasa writes them to stderr unless a handler is installed (tests capture them).

#include <atomic>
#include <functional>
#include <string>

#include "brasa/core/macros.h"

namespace brasa {

using WarningHandler = std::function<void(const std::string& message)>;
/// Emits a warning through the installed handler (default: "[brasa warning] message" on stderr).
BRASA_API void warn(const std::string& message);
/// Installs `handler` (an empty function restores the default); returns the previous one.
BRASA_API WarningHandler set_warning_handler(WarningHandler handler);

// Note [Warn always]
// Some warnings are given once per process (or once per op): casting complex to real, stft without
// return_complex, a CPU fallback, backward with create_graph. With warn-always on (libtorch's
// c10::WarningUtils::set_warnAlways, which compat forwards here; tests turn it on to see every
// warning) each of them is given every time. Process-wide, as libtorch's.
BRASA_API void set_warn_always(bool setting) noexcept;
BRASA_API bool get_warn_always() noexcept;
/// Whether a once-per-process warning guarded by `warned` is due now: the first time, or every
/// time while warn-always is on.
BRASA_API bool warning_due(std::atomic<bool>& warned) noexcept;

}  // namespace brasa
