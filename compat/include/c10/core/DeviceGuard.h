#pragma once
// <c10/core/DeviceGuard.h>: c10::OptionalDeviceGuard is brasa::backend::OptionalDeviceGuard.

#include "brasa/backend/device_guard.h"
#include "c10/brasa_namespaces.h"

namespace c10 {
using OptionalDeviceGuard = ::brasa::backend::OptionalDeviceGuard;
}  // namespace c10
