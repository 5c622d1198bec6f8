// Library: registration of a backend's kernels by op name, checked against the op's signature;
// and the one-device check every backend kernel and the CPU fallback apply first.
#include "brasa/backend/library.h"

#include <cstring>
#include <map>
#include <mutex>

#include "brasa/core/error.h"

namespace brasa::backend {
namespace {
std::mutex g_mutex;
// (op id, key) -> true when a Library kernel holds it, false when aten overloads do; op id -1 is
// the key's fallback.
std::map<std::pair<int, int>, bool> g_registered;

// A 0-d CPU tensor (a Python-style scalar) may join tensors of any device, as in PyTorch.
bool is_cpu_scalar(const Tensor& t) { return t.is_cpu() && t.dim() == 0; }

void check_one(const char* op, const std::string& what, const Tensor& t,
               std::optional<Device>& home, std::string& home_what) {
  if (!t.defined() || is_cpu_scalar(t)) return;
  if (!home) {
    home = t.device();
    home_what = what;
    return;
  }
  BRASA_CHECK(t.device() == *home, op,
              ": expected all tensors to be on the same device, but found ",
              "at least two devices, ", *home, " (", home_what, ") and ", t.device(), " (", what,
              " of shape ", t.sizes(), ")");
}
}  // namespace

void detail::check_devices(const OperatorHandle& op, const Stack& stack) {
  if (op.name() == "copy_") return;  // copies between devices are copy_'s job
  const SchemaInfo& info = op.schema_info();
  std::optional<Device> home;
  std::string home_what;
  for (size_t i = 0; i < stack.size(); ++i) {
    std::string what = i < info.arguments.size() ? "argument '" + info.arguments[i].name + "'"
                                                 : "argument " + std::to_string(i);
    const Value& v = stack[i];
    if (v.is_tensor()) {
      check_one(op.name().c_str(), what, v.tensor(), home, home_what);
    } else if (v.is_tensor_list()) {
      const auto& list = v.get<std::vector<Tensor>>();
      for (size_t k = 0; k < list.size(); ++k)
        check_one(op.name().c_str(), what + "[" + std::to_string(k) + "]", list[k], home,
                  home_what);
    }
  }
}

void detail::DeviceCheck::fail(const Tensor& t) const {
  BRASA_THROW(ValueError, op_, ": expected all tensors to be on the same device, but found at ",
              "least two devices, ", *home_, " and ", t.device(), " (a tensor of shape ", t.sizes(),
              ")");
}

OperatorHandle& detail::op_for_impl(const std::string& name, DispatchKey key, const char* signature,
                                    const std::string& origin) {
  OperatorHandle* op = find_op(name);
  BRASA_CHECK(op != nullptr, "Library::impl: there is no op named '", name, "' (registering a ",
              to_string(key), " kernel", origin.empty() ? "" : " from " + origin, ")");
  BRASA_CHECK(signature == nullptr || std::strcmp(signature, op->signature()) == 0,
              "Library::impl: the kernel given for '", name, "' has another C++ type than the op, ",
              "whose schema is ", op->schema());
  std::lock_guard<std::mutex> lock(g_mutex);
  BRASA_CHECK(g_registered.insert({{op->id(), static_cast<int>(key)}, true}).second,
              "Library::impl: a ", to_string(key), " kernel for '", name, "' is already ",
              "registered; an op takes one kernel per key",
              origin.empty() ? "" : " (again from " + origin + ")");
  return *op;
}

void detail::claim_for_aten(const OperatorHandle& op, DispatchKey key, const std::string& origin) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto [it, fresh] = g_registered.insert({{op.id(), static_cast<int>(key)}, false});
  BRASA_CHECK(fresh || !it->second, "TORCH_LIBRARY_IMPL: brasa's op '", op.name(), "' already has ",
              "a ", to_string(key), " kernel registered by brasa::backend::Library",
              origin.empty() ? "" : " (aten kernel from " + origin + ")");
}

Library::Library(DispatchKey key, std::string origin) : key_(key), origin_(std::move(origin)) {
  BRASA_CHECK(key == DispatchKey::PrivateUse1, "Library: only the PrivateUse1 key takes backend ",
              "kernels, got ", to_string(key));
}

Library& Library::impl_boxed(const std::string& name, BoxedKernel kernel) {
  BRASA_CHECK(kernel != nullptr, "Library::impl_boxed: null kernel for '", name, "'");
  detail::op_for_impl(name, key_, nullptr, origin_).impl_boxed(key_, kernel, origin_.c_str());
  return *this;
}

Library& Library::fallback(BoxedKernel kernel) {
  BRASA_CHECK(kernel != nullptr, "Library::fallback: null kernel");
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    BRASA_CHECK(g_registered.insert({{-1, static_cast<int>(key_)}, true}).second,
                "Library::fallback: a ", to_string(key_),
                " fallback is already registered by a library",
                origin_.empty() ? "" : " (again from " + origin_ + ")");
  }
  set_backend_fallback(key_, kernel);
  return *this;
}

}  // namespace brasa::backend
