#pragma once
// <c10/core/Backend.h>: libtorch's Backend, the device half of the deprecated Tensor::type()
// (Note [Deprecated tensor API]); brasa's tensors are all dense, so only the dense backends of
// brasa's device types exist.

#include <cstdint>

#include "brasa/core/device.h"
#include "c10/brasa_namespaces.h"

namespace brasa {

enum class Backend : int8_t { CPU = 0, CUDA = 1, Meta = 2, PrivateUse1 = 3, Undefined = 4 };

inline Backend deviceTypeToBackend(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return Backend::CPU;
    case DeviceType::CUDA: return Backend::CUDA;
    case DeviceType::Meta: return Backend::Meta;
    case DeviceType::PrivateUse1: return Backend::PrivateUse1;
  }
  return Backend::Undefined;
}

inline DeviceType backendToDeviceType(Backend b) {
  switch (b) {
    case Backend::CUDA: return DeviceType::CUDA;
    case Backend::Meta: return DeviceType::Meta;
    case Backend::PrivateUse1: return DeviceType::PrivateUse1;
    default: return DeviceType::CPU;
  }
}

inline const char* toString(Backend b) {
  switch (b) {
    case Backend::CPU: return "CPU";
    case Backend::CUDA: return "CUDA";
    case Backend::Meta: return "Meta";
    case Backend::PrivateUse1: return "PrivateUse1";
    default: return "UNKNOWN_BACKEND";
  }
}

}  // namespace brasa
