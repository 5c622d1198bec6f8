#pragma once
// Warnings: brasa writes them to stderr unless a handler is installed (tests capture them).

#include <functional>
#include <string>

#include "brasa/core/macros.h"

namespace brasa {

using WarningHandler = std::function<void(const std::string& message)>;
/// Emits a warning through the installed handler (default: "[brasa warning] message" on stderr).
BRASA_API void warn(const std::string& message);
/// Installs `handler` (an empty function restores the default); returns the previous one.
BRASA_API WarningHandler set_warning_handler(WarningHandler handler);

}  // namespace brasa
