#pragma once
// libtorch's operator registration spelling for backends:
//
//   TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
//     m.impl("add.Tensor", TORCH_FN(my_add));         // aten name and aten C++ signature
//     m.impl("mul.Tensor", &my_mul);
//   }
//   TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
//     m.fallback(torch::CppFunction::makeFromBoxedFunction<&my_fallback>());
//   }
//
// Kernels go to brasa's op that the aten overload names (brasa/backend/aten.h); the kernel's
// signature is checked against the overload's. TORCH_LIBRARY (defining new ops) is not supported.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ATen/ATen.h"
#include "brasa/backend/aten.h"
#include "brasa/backend/fallback.h"
#include "brasa/backend/library.h"
#include "c10/brasa_namespaces.h"
#include "c10/util/string_view.h"

namespace c10 {
using SymInt = int64_t;
using SymIntArrayRef = ::brasa::IntArrayRef;
using OptionalIntArrayRef = std::optional<::brasa::IntArrayRef>;  // a kernel parameter type
using OperatorHandle = ::brasa::OperatorHandle;
}  // namespace c10
namespace at {
using ::c10::OptionalIntArrayRef;
using ::c10::SymIntArrayRef;
}  // namespace at
namespace torch::jit {
using Stack = ::brasa::Stack;
}  // namespace torch::jit

namespace torch {
namespace detail {

// The aten notation of a kernel's C++ types (brasa/backend/aten.h).
template <typename T>
struct AtenType;
#define BRASA_ATEN_TYPE(cpp, name)            \
  template <>                                 \
  struct AtenType<cpp> {                      \
    static std::string str() { return name; } \
  };
BRASA_ATEN_TYPE(::brasa::Tensor, "Tensor")
BRASA_ATEN_TYPE(::brasa::Scalar, "Scalar")
BRASA_ATEN_TYPE(int64_t, "int")
BRASA_ATEN_TYPE(double, "float")
BRASA_ATEN_TYPE(bool, "bool")
BRASA_ATEN_TYPE(::brasa::IntArrayRef, "int[]")
BRASA_ATEN_TYPE(::brasa::TensorList, "Tensor[]")
BRASA_ATEN_TYPE(::brasa::ScalarType, "ScalarType")
BRASA_ATEN_TYPE(::brasa::Device, "Device")
BRASA_ATEN_TYPE(::brasa::Layout, "Layout")
BRASA_ATEN_TYPE(::brasa::MemoryFormat, "MemoryFormat")
BRASA_ATEN_TYPE(std::string, "str")
BRASA_ATEN_TYPE(std::string_view, "str")
BRASA_ATEN_TYPE(::brasa::Generator, "Generator")
BRASA_ATEN_TYPE(std::vector<::brasa::Tensor>, "Tensor[]")
BRASA_ATEN_TYPE(void, "()")
#undef BRASA_ATEN_TYPE
template <typename T>
struct AtenType<std::optional<T>> {
  static std::string str() { return AtenType<T>::str() + "?"; }
};
template <typename... T>
struct AtenType<std::tuple<T...>> {
  static std::string str() {
    std::string s;
    ((s += (s.empty() ? "" : ", ") + AtenType<T>::str()), ...);
    return "(" + s + ")";
  }
};
template <typename T>
using plain_t = std::remove_cv_t<std::remove_reference_t<T>>;

template <typename R, typename... Args>
std::string aten_signature() {
  std::string s = AtenType<plain_t<R>>::str() + "(";
  bool first = true;
  ((s += (first ? "" : ", ") + AtenType<plain_t<Args>>::str(), first = false), ...);
  return s + ")";
}

// One aten argument from a Value (brasa passes None for Layout and MemoryFormat).
template <typename T>
struct FromValue {
  static T get(::brasa::Value& v) { return ::brasa::detail::boxer_t<T>::from_value(v); }
};
template <>
struct FromValue<::brasa::Tensor&> {
  static ::brasa::Tensor& get(::brasa::Value& v) { return v.tensor(); }
};
template <>
struct FromValue<::brasa::Layout> {
  static ::brasa::Layout get(::brasa::Value&) { return ::brasa::Layout::Strided; }
};
template <>
struct FromValue<::brasa::MemoryFormat> {
  static ::brasa::MemoryFormat get(::brasa::Value&) { return ::brasa::MemoryFormat::Contiguous; }
};
template <>
struct FromValue<std::string_view> {
  static std::string_view get(::brasa::Value& v) { return v.get<std::string>(); }
};
template <typename T>
struct FromValue<std::optional<T>> {
  static std::optional<T> get(::brasa::Value& v) {
    if (v.is_none()) return std::nullopt;
    return FromValue<T>::get(v);
  }
};
template <typename T>
using from_t = FromValue<std::conditional_t<std::is_same_v<T, ::brasa::Tensor&>, T, plain_t<T>>>;

template <typename R, typename... Args, size_t... I>
void call_aten(R (*fn)(Args...), ::brasa::Stack& s, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    fn(from_t<Args>::get(s[I])...);
    s.clear();
  } else {
    plain_t<R> r = fn(from_t<Args>::get(s[I])...);
    s.clear();
    ::brasa::detail::push_result(s, std::move(r));
  }
}
template <typename R, typename... Args>
void call_erased(void* fn, ::brasa::Stack& s) {
  call_aten(reinterpret_cast<R (*)(Args...)>(fn), s, std::index_sequence_for<Args...>{});
}

template <auto f>
void boxed_trampoline(const ::brasa::OperatorHandle& op, ::brasa::DispatchKeySet,
                      ::brasa::Stack& s) {
  f(op, &s);
}

}  // namespace detail

/// A kernel for Library::impl / fallback: from a function pointer or a boxed function.
class CppFunction {
 public:
  template <typename R, typename... Args>
  explicit CppFunction(R (*fn)(Args...))
      : fn_(reinterpret_cast<void*>(fn)),
        call_(&detail::call_erased<R, Args...>),
        signature_(detail::aten_signature<R, Args...>()) {}

  /// `f` is void(const c10::OperatorHandle&, torch::jit::Stack*).
  template <auto f>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(&detail::boxed_trampoline<f>);
  }

  void* fn() const { return fn_; }
  ::brasa::backend::AtenCall call() const { return call_; }
  const std::string& signature() const { return signature_; }
  ::brasa::BoxedKernel boxed() const { return boxed_; }

 private:
  explicit CppFunction(::brasa::BoxedKernel boxed) : boxed_(boxed) {}
  void* fn_ = nullptr;
  ::brasa::backend::AtenCall call_ = nullptr;
  std::string signature_;
  ::brasa::BoxedKernel boxed_ = nullptr;
};

/// TORCH_FN(f): the function f as a registrable kernel.
#define TORCH_FN(f) (&f)

class Library {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };
  Library(Kind kind, std::string ns, std::optional<::brasa::DispatchKey> key, const char* file,
          uint32_t line)
      : ns_(std::move(ns)),
        key_(key.value_or(::brasa::DispatchKey::PrivateUse1)),
        origin_(std::string(file) + ":" + std::to_string(line)) {
    BRASA_CHECK(kind == IMPL, "TORCH_LIBRARY: defining ops is not supported by brasa; use ",
                "TORCH_LIBRARY_IMPL to give kernels to existing aten ops");
  }

  /// Registers a kernel for the aten overload `name` ("add.Tensor").
  template <typename Func>
  Library& impl(const char* name, Func&& f) {
    return impl_function(name, CppFunction(to_pointer(std::forward<Func>(f))));
  }
  Library& impl(const char* name, CppFunction&& f) { return impl_function(name, std::move(f)); }

  /// The key's fallback for every op without a kernel (namespace `_`).
  Library& fallback(CppFunction&& f) {
    BRASA_CHECK(f.boxed() != nullptr, "Library::fallback: expects a boxed function ",
                "(torch::CppFunction::makeFromBoxedFunction<&fn>())");
    ::brasa::backend::Library(key_, origin_).fallback(f.boxed());
    return *this;
  }

 private:
  template <typename R, typename... Args>
  static auto to_pointer(R (*fn)(Args...)) {
    return fn;
  }
  template <typename F>
  static auto to_pointer(F&& f) {
    return +f;  // a lambda without captures
  }
  Library& impl_function(const char* name, CppFunction f) {
    BRASA_CHECK(ns_ == "aten", "TORCH_LIBRARY_IMPL: brasa maps only aten ops, got namespace '", ns_,
                "' for ", name);
    if (f.boxed()) {
      std::string op = name;
      BRASA_THROW(ValueError, "TORCH_LIBRARY_IMPL: boxed kernels per aten overload (", op,
                  ") are not supported; register an unboxed kernel or a fallback");
    }
    ::brasa::backend::register_aten_kernel(key_, name, f.signature(), f.call(), f.fn(), origin_);
    return *this;
  }

  std::string ns_;
  ::brasa::DispatchKey key_;
  std::string origin_;
};

}  // namespace torch

#define TORCH_LIBRARY_IMPL(ns, k, m) \
  BRASA_TORCH_LIBRARY_IMPL_(ns, k, m, BRASA_CONCAT(brasa_torch_library_impl_, __COUNTER__))
#define BRASA_TORCH_LIBRARY_IMPL_(ns, k, m, uid)                                                \
  static void BRASA_CONCAT(uid, _body)(::torch::Library & m);                                   \
  static void BRASA_CONCAT(uid, _run)() {                                                       \
    ::torch::Library lib(::torch::Library::IMPL, #ns, ::brasa::DispatchKey::k, __FILE__,        \
                         __LINE__);                                                             \
    BRASA_CONCAT(uid, _body)(lib);                                                              \
  }                                                                                             \
  static const bool BRASA_CONCAT(uid, _done) =                                                  \
      ::brasa::backend::detail::run_registration(&BRASA_CONCAT(uid, _run), __FILE__, __LINE__); \
  static void BRASA_CONCAT(uid, _body)(::torch::Library & m)
