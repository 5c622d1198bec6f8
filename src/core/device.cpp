#include "brasa/core/device.h"

#include <atomic>
#include <mutex>

#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa {
namespace {
// Note [PrivateUse1 name]: the name may be set once per process, before the first PrivateUse1
// tensor or device exists (the name is part of what was printed and parsed until then). Reads
// take no lock: the name is written once, normally from a backend's registration at load time.
std::mutex g_name_mutex;
std::string g_privateuse1_name = "privateuseone";
std::atomic<bool> g_renamed{false};
std::atomic<bool> g_privateuse1_used{false};

// Device type names PyTorch knows; none of them may become the PrivateUse1 name.
constexpr const char* kBuiltinNames[] = {
    "cpu",  "cuda", "ipu", "xpu",  "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
    "fpga", "maia", "xla", "lazy", "vulkan", "mps",    "meta",   "hpu",   "mtia"};

bool valid_type_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
  return true;
}

bool parse_type(const std::string& type, DeviceType& out) {
  if (type == "cpu") {
    out = kCPU;
  } else if (type == "cuda") {
    out = kCUDA;
  } else if (type == "meta") {
    out = kMeta;
  } else if (type == "privateuseone" || type == g_privateuse1_name) {
    out = kPrivateUse1;
  } else {
    return false;
  }
  return true;
}
}  // namespace

namespace detail {
void mark_privateuse1_used() { g_privateuse1_used.store(true, std::memory_order_relaxed); }
}  // namespace detail

std::string device_type_name(DeviceType t) {
  switch (t) {
    case kCPU: return "cpu";
    case kCUDA: return "cuda";
    case kMeta: return "meta";
    case kPrivateUse1: return g_privateuse1_name;
  }
  return "unknown";
}

void rename_privateuse1_backend(const std::string& name) {
  std::lock_guard<std::mutex> lock(g_name_mutex);
  BRASA_CHECK(valid_type_name(name), "rename_privateuse1_backend: '", name,
              "' is not a valid device type name (expected lower-case letters and '_')");
  for (const char* builtin : kBuiltinNames)
    BRASA_CHECK(name != builtin, "rename_privateuse1_backend: '", name,
                "' is a built-in device type name and cannot name the PrivateUse1 backend");
  if (g_renamed.load()) {
    BRASA_CHECK(name == g_privateuse1_name, "rename_privateuse1_backend: the PrivateUse1 backend ",
                "is already named '", g_privateuse1_name, "'; it can be renamed once per process ",
                "(asked for '", name, "')");
    return;
  }
  BRASA_CHECK(!g_privateuse1_used.load(), "rename_privateuse1_backend: cannot rename to '", name,
              "' after the first PrivateUse1 tensor or device was made (it is called '",
              g_privateuse1_name, "' by then); rename before first use");
  g_privateuse1_name = name;
  g_renamed.store(true);
}

std::string get_privateuse1_backend_name() { return g_privateuse1_name; }

Device::Device(const std::string& spec) : type_(kCPU), index_(-1) {
  std::string type = spec;
  auto colon = spec.find(':');
  if (colon != std::string::npos) {
    type = spec.substr(0, colon);
    std::string idx = spec.substr(colon + 1);
    bool ok = !idx.empty() && idx.size() <= 3 &&
              idx.find_first_not_of("0123456789") == std::string::npos &&
              (idx.size() == 1 || idx[0] != '0');
    BRASA_CHECK(ok, "Device: invalid device index in '", spec, "' (expected e.g. 'cuda:0')");
    int v = std::stoi(idx);
    BRASA_CHECK(v < 128, "Device: index ", v, " in '", spec, "' is too large");
    index_ = static_cast<int8_t>(v);
  }
  // A backend named by BRASA_BACKENDS may not be loaded yet: load it, then look again.
  if (!parse_type(type, type_) &&
      !(detail::load_startup_backends_hook() && parse_type(type, type_)))
    BRASA_THROW(ValueError, "Device: expected one of cpu, cuda, meta, ", g_privateuse1_name,
                " (optionally with ':index'), got '", spec, "'");
  BRASA_CHECK(type_ != kCPU || index_ <= 0, "Device: CPU device index must be -1 or zero, got '",
              spec, "'");
  if (type_ == kPrivateUse1) detail::mark_privateuse1_used();
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
