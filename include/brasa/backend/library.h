#pragma once
// Kernels of a backend, registered per op by brasa's op names and C++ signatures:
//
//   BRASA_LIBRARY_IMPL(PrivateUse1, lib) {
//     lib.impl<&npu_add>("add");     // Tensor(const Tensor&, const Tensor&, const Scalar&, ...)
//     lib.fallback(&my_fallback);     // optional: replaces the CPU fallback for this key
//   }
//
// The kernel's type must be the op's (OperatorHandle::schema() shows it); a wrong type, an
// unknown op or a second kernel for the same op and key throws ValueError. Registered kernels see
// only arguments of one device: a tensor of another device (but for 0-d CPU scalars) is refused
// before the kernel runs. libtorch's TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) spelling, with aten
// names and signatures, is in <torch/library.h>.

#include <optional>
#include <string>
#include <type_traits>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::backend {
namespace detail {
/// Throws unless all tensors of the op's arguments (lists included) are on one device, except
/// 0-d CPU tensors; names the op, the argument and both devices.
BRASA_API void check_devices(const OperatorHandle& op, const Stack& stack);
BRASA_API void claim_for_aten(const OperatorHandle& op, DispatchKey key, const std::string& origin);
BRASA_API OperatorHandle& op_for_impl(const std::string& name, DispatchKey key,
                                      const char* signature, const std::string& origin);

/// The one-device check of an unboxed call, argument by argument, without allocating.
class BRASA_API DeviceCheck {
 public:
  explicit DeviceCheck(const char* op) : op_(op) {}
  void add(const Tensor& t) {
    if (!t.defined() || (t.is_cpu() && t.dim() == 0)) return;
    if (!home_) {
      home_ = t.device();
    } else if (t.device() != *home_) {
      fail(t);
    }
  }
  void add(const std::optional<Tensor>& t) {
    if (t) add(*t);
  }
  void add(TensorList l) {
    for (const Tensor& t : l) add(t);
  }
  void add(const std::vector<Tensor>& l) { add(TensorList(l)); }
  template <typename T>
  void add(const T&) {}

 private:
  [[noreturn]] void fail(const Tensor& t) const;
  const char* op_;
  std::optional<Device> home_;
};

template <typename F>
struct fn_signature;
template <typename R, typename... Args>
struct fn_signature<R (*)(Args...)> {
  using type = R(Args...);
};
}  // namespace detail

class BRASA_API Library {
 public:
  /// `origin` names the registering library in error messages (e.g. its file).
  explicit Library(DispatchKey key, std::string origin = "");

  /// Registers `fn` as the kernel of op `name` for this library's key.
  template <auto fn>
  Library& impl(const std::string& name) {
    using Sig = typename detail::fn_signature<decltype(fn)>::type;
    OperatorHandle& op = detail::op_for_impl(name, key_, typeid(Sig).name(), origin_);
    Checked<fn, Sig>::op_name = op.name().c_str();
    Checked<fn, Sig>::check = op.name() != "copy_";
    static_cast<Op<Sig>&>(op).template impl<&Checked<fn, Sig>::call>(key_, origin_.c_str());
    return *this;
  }
  /// Registers a boxed kernel (arguments on the stack, results left on it) for op `name`.
  Library& impl_boxed(const std::string& name, BoxedKernel kernel);
  /// Replaces the key's fallback (for PrivateUse1: the CPU fallback) with `kernel`.
  Library& fallback(BoxedKernel kernel);

  DispatchKey key() const { return key_; }
  const std::string& origin() const { return origin_; }

 private:
  template <auto fn, typename Sig>
  struct Checked;
  template <auto fn, typename R, typename... Args>
  struct Checked<fn, R(Args...)> {
    static inline const char* op_name = "";
    static inline bool check = true;  // copy_ moves between devices
    static R call(Args... args) {
      if (check) {
        detail::DeviceCheck c(op_name);
        (c.add(args), ...);
      }
      return fn(std::forward<Args>(args)...);
    }
  };

  DispatchKey key_;
  std::string origin_;
};

namespace detail {
/// Runs a library's registration function: inside load_backend its error is kept and rethrown
/// there; at a program's own start-up (no exception can escape a static initialiser) it is
/// printed to stderr and kept for registration_errors().
BRASA_API bool run_registration(void (*fn)(), const char* file, int line);
}  // namespace detail
/// Errors of registrations that ran outside load_backend.
BRASA_API std::vector<std::string> registration_errors();

}  // namespace brasa::backend

#define BRASA_LIBRARY_IMPL(key, lib) \
  BRASA_LIBRARY_IMPL_(key, lib, BRASA_CONCAT(brasa_lib_, __COUNTER__))
#define BRASA_LIBRARY_IMPL_(key, lib, uid)                                                      \
  static void BRASA_CONCAT(uid, _body)(::brasa::backend::Library & lib);                        \
  static void BRASA_CONCAT(uid, _run)() {                                                       \
    ::brasa::backend::Library lib(::brasa::DispatchKey::key, __FILE__);                         \
    BRASA_CONCAT(uid, _body)(lib);                                                              \
  }                                                                                             \
  static const bool BRASA_CONCAT(uid, _done) =                                                  \
      ::brasa::backend::detail::run_registration(&BRASA_CONCAT(uid, _run), __FILE__, __LINE__); \
  static void BRASA_CONCAT(uid, _body)(::brasa::backend::Library & lib)
