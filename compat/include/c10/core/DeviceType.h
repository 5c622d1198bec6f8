#pragma once
// c10::DeviceType is brasa's; c10::register_privateuse1_backend renames the PrivateUse1 device.

#include <string>

#include "c10/core/Device.h"

namespace c10 {
using DeviceIndex = int8_t;
/// libtorch's spelling of brasa::rename_privateuse1_backend.
inline void register_privateuse1_backend(const std::string& name) {
  ::brasa::rename_privateuse1_backend(name);
}
inline std::string get_privateuse1_backend(bool lower_case = true) {
  std::string n = ::brasa::get_privateuse1_backend_name();
  if (!lower_case)
    for (char& c : n) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return n;
}
}  // namespace c10
