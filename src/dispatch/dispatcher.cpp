#include "brasa/dispatch/dispatcher.h"

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <unordered_map>

#include "brasa/core/error.h"

namespace brasa {

thread_local LocalDispatchKeySet tls_dispatch_keys __attribute__((tls_model("initial-exec")));

namespace detail {
std::atomic<uint32_t> g_fallback_mask{0};
bool g_log_dispatch = [] {
  const char* v = std::getenv("BRASA_LOG_DISPATCH");
  return v && *v && std::string(v) != "0";
}();
}  // namespace detail

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<OperatorHandle*> ops;
  std::unordered_map<std::string, OperatorHandle*> by_name;
  BoxedKernel fallbacks[kNumDispatchKeys] = {};
};
Registry& registry() {
  static Registry r;
  return r;
}
}  // namespace

BoxedKernel detail::backend_fallback(DispatchKey k) {
  return registry().fallbacks[static_cast<int>(k)];
}

const char* to_string(DispatchKey k) {
  switch (k) {
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::CUDA: return "CUDA";
    case DispatchKey::PrivateUse1: return "PrivateUse1";
    case DispatchKey::Meta: return "Meta";
    case DispatchKey::AutogradOther: return "AutogradOther";
    case DispatchKey::Autograd: return "Autograd";
    case DispatchKey::Autocast: return "Autocast";
    case DispatchKey::Trace: return "Trace";
    default: return "Unknown";
  }
}
std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << to_string(k); }

namespace {
// __FILE__ is what the compiler was given: absolute, or relative to the build folder
// ("../../src/ops/pool/pool_ops.h"). Both become relative to the source root by keeping the part
// from the last source folder ("src/", "include/", "tests/", ...) on.
std::string relative_source_path(const char* file) {
  const std::string path = std::string("/") + (file ? file : "");
  size_t best = std::string::npos;
  for (const char* root : {"/src/", "/include/", "/tests/", "/tools/", "/examples/", "/bench/"}) {
    size_t at = path.rfind(root);
    if (at != std::string::npos && (best == std::string::npos || at > best)) best = at;
  }
  return best == std::string::npos ? path.substr(1) : path.substr(best + 1);
}
}  // namespace

OperatorHandle::OperatorHandle(const char* name, const char* schema, const char* signature,
                               int num_arguments, const char* declared_in, const char* aten)
    : name_(name),
      schema_(schema),
      info_(SchemaInfo::parse(schema)),
      signature_(signature),
      num_arguments_(num_arguments),
      declared_in_(relative_source_path(declared_in)),
      aten_(aten) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  BRASA_INTERNAL_ASSERT(!r.by_name.count(name_), "op '", name_, "' defined twice");
  id_ = static_cast<int>(r.ops.size());
  r.ops.push_back(this);
  r.by_name[name_] = this;
}

OperatorHandle::~OperatorHandle() = default;

void OperatorHandle::set_kernel(DispatchKey k, void* unboxed, BoxedKernel boxed, const char* file) {
  int i = static_cast<int>(k);
  unboxed_[i] = unboxed;
  boxed_[i] = boxed;
  kernel_files_[i] = relative_source_path(file);
  kernel_mask_ |= DispatchKeySet(k).raw();
}

void OperatorHandle::impl_boxed(DispatchKey k, BoxedKernel kernel, const char* file) {
  set_kernel(k, nullptr, kernel, file);
}

void OperatorHandle::no_kernel(DispatchKeySet keys) const {
  std::string have;
  for (int i = 0; i < kNumDispatchKeys; ++i)
    if (kernel_mask_ & (1u << i))
      have += std::string(have.empty() ? "" : ", ") + to_string(DispatchKey(i));
  std::string asked;
  for (int i = 0; i < kNumDispatchKeys; ++i)
    if (keys.raw() & (1u << i))
      asked += std::string(asked.empty() ? "" : ", ") + to_string(DispatchKey(i));
  BRASA_THROW(NotImplementedError, name_, ": no kernel for dispatch keys {", asked,
              "}; the op has kernels for {", have, "}");
}

void OperatorHandle::log_dispatch(DispatchKey k) const {
  std::cerr << "[brasa dispatch] " << name_ << " -> " << to_string(k) << "\n";
}

DispatchKeySet OperatorHandle::keys_from_stack(const Stack& stack) {
  uint32_t k = 0;
  for (const Value& v : stack) {
    if (v.is_tensor())
      k |= detail::keys_of(v.tensor());
    else if (v.is_tensor_list())
      k |= detail::keys_of(v.get<std::vector<Tensor>>());
    else if (v.is<Device>())
      k |= detail::keys_of(v.get<Device>());
  }
  return compute_keys(k);
}

void OperatorHandle::call_boxed(Stack& stack) const {
  if (BRASA_UNLIKELY(detail::g_record_ops.load(std::memory_order_relaxed))) {
    struct Scope {
      int slot;
      ~Scope() {
        if (slot >= 0) detail::close_scope(slot);
      }
    } scope{detail::open_op_scope(*this)};
    if (scope.slot >= 0) detail::set_scope_inputs(scope.slot, stack);
    call_boxed(keys_from_stack(stack), stack);
    return;
  }
  call_boxed(keys_from_stack(stack), stack);
}

void OperatorHandle::call_boxed(DispatchKeySet keys, Stack& stack) const {
  call_boxed_at(pick(keys), keys, stack);
}

void OperatorHandle::call_boxed_at(DispatchKey k, DispatchKeySet keys, Stack& stack) const {
  // Note [Typed kernels boxed]
  // A typed kernel (Op::impl) registers no boxed function of its own: the op's one stack caller
  // (per signature, not per kernel) unpacks the stack and calls it.
  const int i = static_cast<int>(k);
  BoxedKernel kernel = boxed_[i];
  if (!kernel && unboxed_[i] != nullptr) {
    stack_caller_(unboxed_[i], stack);
    return;
  }
  if (!kernel) kernel = detail::backend_fallback(k);
  BRASA_INTERNAL_ASSERT(kernel != nullptr, name_, ": no boxed kernel at ", to_string(k));
  kernel(*this, keys, stack);
}

OperatorHandle* find_op(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second;
}

std::vector<OperatorHandle*> all_ops() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.ops;
}

void set_backend_fallback(DispatchKey k, BoxedKernel kernel) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.fallbacks[static_cast<int>(k)] = kernel;
  if (kernel)
    detail::g_fallback_mask |= DispatchKeySet(k).raw();
  else
    detail::g_fallback_mask &= ~DispatchKeySet(k).raw();
}

}  // namespace brasa
