#pragma once
// <ATen/DeviceGuard.h>: at::OptionalDeviceGuard (c10's) and at::device_of(tensor).

#include <optional>

#include "brasa/core/tensor.h"
#include "c10/core/DeviceGuard.h"

namespace at {
using c10::OptionalDeviceGuard;
/// The device of `t`, or nullopt for an undefined tensor.
inline std::optional<::brasa::Device> device_of(const ::brasa::Tensor& t) {
  return t.defined() ? std::optional<::brasa::Device>(t.device()) : std::nullopt;
}
}  // namespace at
