#pragma once
// The device-agnostic accelerator API (PyTorch's torch.accelerator): user code asks for "the
// accelerator" instead of naming cuda or npu. A registered PrivateUse1 backend is the accelerator;
// else CUDA when brasa has a CUDA backend; else there is none.

#include <optional>

#include "brasa/core/device.h"

namespace brasa::accelerator {

/// The accelerator's device type as a Device without index, or nullopt. With check_available, also
/// nullopt when it has no usable device.
BRASA_API std::optional<Device> current_accelerator(bool check_available = false);
/// Number of devices of the accelerator; 0 without one (never throws).
BRASA_API int device_count() noexcept;
/// True when there is an accelerator with at least one device.
BRASA_API bool is_available() noexcept;
/// The calling thread's current device index; throws RuntimeError-like ValueError without one.
BRASA_API int current_device_index();
/// Makes `index` current; a negative index does nothing. Throws ValueError when out of range.
BRASA_API void set_device_index(int index);
/// The same, from a Device, which must be of the accelerator's type.
BRASA_API void set_device_index(Device device);
/// Waits for all work on device `index` (-1: the current one); no-op without an accelerator.
BRASA_API void synchronize(int index = -1);

/// RAII: makes `index` current (negative: no change) and restores the previous device.
class BRASA_API DeviceIndexGuard {
 public:
  explicit DeviceIndexGuard(int index);
  ~DeviceIndexGuard();
  DeviceIndexGuard(const DeviceIndexGuard&) = delete;
  DeviceIndexGuard& operator=(const DeviceIndexGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace brasa::accelerator
