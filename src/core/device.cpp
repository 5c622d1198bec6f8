#include "brasa/core/device.h"

#include <mutex>

#include "brasa/core/error.h"

namespace brasa {
namespace {
std::string& privateuse1_name() {
  static std::string name = "privateuseone";
  return name;
}
}  // namespace

std::string device_type_name(DeviceType t) {
  switch (t) {
    case kCPU: return "cpu";
    case kCUDA: return "cuda";
    case kMeta: return "meta";
    case kPrivateUse1: return privateuse1_name();
  }
  return "unknown";
}

void rename_privateuse1_backend(const std::string& name) {
  BRASA_CHECK(!name.empty() && name != "cpu" && name != "cuda" && name != "meta",
              "rename_privateuse1_backend: '", name, "' is empty or already a device name");
  privateuse1_name() = name;
}

Device::Device(const std::string& spec) : type_(kCPU), index_(-1) {
  std::string type = spec;
  auto colon = spec.find(':');
  if (colon != std::string::npos) {
    type = spec.substr(0, colon);
    std::string idx = spec.substr(colon + 1);
    bool ok =
        !idx.empty() && idx.size() <= 3 && idx.find_first_not_of("0123456789") == std::string::npos;
    BRASA_CHECK(ok, "Device: invalid device index in '", spec, "' (expected e.g. 'cuda:0')");
    int v = std::stoi(idx);
    BRASA_CHECK(v < 128, "Device: index ", v, " in '", spec, "' is too large");
    index_ = static_cast<int8_t>(v);
  }
  if (type == "cpu")
    type_ = kCPU;
  else if (type == "cuda")
    type_ = kCUDA;
  else if (type == "meta")
    type_ = kMeta;
  else if (type == "privateuseone" || type == privateuse1_name())
    type_ = kPrivateUse1;
  else
    BRASA_THROW(ValueError, "Device: expected one of cpu, cuda, meta, ", privateuse1_name(),
                " (optionally with ':index'), got '", spec, "'");
}

std::string Device::str() const {
  std::string s = device_type_name(type_);
  if (has_index()) {
    s += ':';
    s += std::to_string(index_);
  }
  return s;
}

std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }
std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << device_type_name(t); }

}  // namespace brasa
