#pragma once
// at::accelerator: libtorch's spelling of brasa::accelerator (brasa/backend/accelerator.h).

#include <optional>

#include "brasa/backend/accelerator.h"
#include "brasa/core/error.h"
#include "c10/core/DeviceType.h"

namespace at::accelerator {
inline std::optional<c10::DeviceType> getAccelerator(bool checked = false) {
  auto d = ::brasa::accelerator::current_accelerator();
  BRASA_CHECK(d || !checked, "getAccelerator: no accelerator is registered");
  return d ? std::optional<c10::DeviceType>(d->type()) : std::nullopt;
}
inline bool isAccelerator(c10::DeviceType t) {
  return t == c10::DeviceType::CUDA || t == c10::DeviceType::PrivateUse1;
}
inline c10::DeviceIndex deviceCount() {
  return static_cast<c10::DeviceIndex>(::brasa::accelerator::device_count());
}
inline void setDeviceIndex(c10::DeviceIndex i) { ::brasa::accelerator::set_device_index(i); }
inline c10::DeviceIndex getDeviceIndex() {
  return static_cast<c10::DeviceIndex>(::brasa::accelerator::current_device_index());
}
inline void synchronizeDevice(c10::DeviceIndex i) { ::brasa::accelerator::synchronize(i); }
}  // namespace at::accelerator
