#pragma once
// Device: a device type and an index, parsed from strings like "cpu", "meta", "cuda:1",
// "privateuseone".

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "brasa/core/macros.h"

namespace brasa {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9, PrivateUse1 = 13 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;

/// Lower-case name ("cpu", "cuda", "meta", or the registered PrivateUse1 name).
BRASA_API std::string device_type_name(DeviceType t);
/// Renames the PrivateUse1 device (e.g. "npu"); later parsing and printing use the new name.
/// Allowed once per process (the same name again is a no-op) and only before the first
/// PrivateUse1 tensor or device; lower-case letters and '_' only; built-in device type names
/// ("cpu", "cuda", "meta", "xpu", ...) are refused. Throws ValueError otherwise.
BRASA_API void rename_privateuse1_backend(const std::string& name);
/// The PrivateUse1 device's name ("privateuseone" unless renamed).
BRASA_API std::string get_privateuse1_backend_name();

struct BRASA_API Device {
  using Type = DeviceType;  // libtorch's spelling, c10::Device::Type
  Device(DeviceType type, int8_t index = -1) : type_(type), index_(index) {}  // NOLINT
  /// Parses "cpu", "cuda:0", "meta", ...; throws ValueError on anything else.
  Device(const std::string& spec);                         // NOLINT
  Device(const char* spec) : Device(std::string(spec)) {}  // NOLINT

  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cpu() const { return type_ == kCPU; }
  bool is_cuda() const { return type_ == kCUDA; }
  bool is_meta() const { return type_ == kMeta; }
  bool is_privateuseone() const { return type_ == kPrivateUse1; }
  std::string str() const;
  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }

 private:
  DeviceType type_;
  int8_t index_;
};

BRASA_API std::ostream& operator<<(std::ostream& os, const Device& d);
BRASA_API std::ostream& operator<<(std::ostream& os, DeviceType t);

}  // namespace brasa
