#pragma once
// OptionalDeviceGuard: RAII over a backend's current device (c10::OptionalDeviceGuard). It sets
// a device only when given one, and restores the device that was current before on destruction.
// CPU and device types without a runtime (no index to switch) make it a no-op that still records
// the device.

#include <optional>

#include "brasa/backend/backend.h"

namespace brasa::backend {

class OptionalDeviceGuard {
 public:
  OptionalDeviceGuard() = default;
  explicit OptionalDeviceGuard(Device device) { reset_device(device); }
  explicit OptionalDeviceGuard(std::optional<Device> device) {
    if (device) reset_device(*device);
  }
  ~OptionalDeviceGuard() { reset(); }
  OptionalDeviceGuard(const OptionalDeviceGuard&) = delete;
  OptionalDeviceGuard& operator=(const OptionalDeviceGuard&) = delete;

  /// Makes `device` current (restoring the original one first when the type changes).
  void reset_device(Device device) {
    if (original_ && original_->type() != device.type()) reset();
    DeviceRuntime* rt = runtime(device.type());
    if (!original_) {
      original_ =
          rt != nullptr ? Device(device.type(), static_cast<int8_t>(rt->current_device())) : device;
    }
    if (rt != nullptr && device.has_index()) rt->set_device(device.index());
    current_ =
        rt != nullptr ? Device(device.type(), static_cast<int8_t>(rt->current_device())) : device;
  }
  /// Restores the original device and forgets it.
  void reset() {
    if (original_) {
      if (DeviceRuntime* rt = runtime(original_->type()); rt && original_->has_index()) {
        rt->set_device(original_->index());
      }
    }
    original_.reset();
    current_.reset();
  }
  /// The device current before the guard set one (nullopt when it never did).
  std::optional<Device> original_device() const { return original_; }
  /// The device the guard made current (nullopt when it never did).
  std::optional<Device> current_device() const { return current_; }

 private:
  std::optional<Device> original_, current_;
};

}  // namespace brasa::backend
