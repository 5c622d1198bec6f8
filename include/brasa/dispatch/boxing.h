#pragma once
// Conversions between C++ argument types and Values, used to build boxed wrappers of unboxed
// kernels and unboxed calls of boxed kernels. Only included by the dispatcher's templates.

#include <tuple>
#include <type_traits>

#include "brasa/core/dispatch_key.h"
#include "brasa/dispatch/value.h"

namespace brasa::detail {

template <typename T>
struct Boxer;  // to_value(const T&) -> Value; from_value(Value&) -> T-compatible

template <typename T>
struct SimpleBoxer {
  static Value to_value(const T& v) { return Value(v); }
  static T from_value(Value& v) { return v.get<T>(); }
};
template <>
struct Boxer<Tensor> : SimpleBoxer<Tensor> {
  static Value to_value(const Tensor& v) { return Value(v); }
  static const Tensor& from_value(Value& v) {
    static const Tensor undefined;
    return v.is_none() ? undefined : v.get<Tensor>();
  }
};
template <>
struct Boxer<Scalar> : SimpleBoxer<Scalar> {};
template <>
struct Boxer<int64_t> : SimpleBoxer<int64_t> {};
template <>
struct Boxer<double> : SimpleBoxer<double> {};
template <>
struct Boxer<bool> : SimpleBoxer<bool> {};
template <>
struct Boxer<ScalarType> : SimpleBoxer<ScalarType> {};
template <>
struct Boxer<Device> : SimpleBoxer<Device> {};
template <>
struct Boxer<Generator> : SimpleBoxer<Generator> {};
template <>
struct Boxer<std::string> : SimpleBoxer<std::string> {};
template <>
struct Boxer<std::vector<Tensor>> : SimpleBoxer<std::vector<Tensor>> {};
template <>
struct Boxer<IntArrayRef> {
  static Value to_value(IntArrayRef v) { return Value(v.vec()); }
  static IntArrayRef from_value(Value& v) { return v.get<std::vector<int64_t>>(); }
};
template <>
struct Boxer<TensorList> {
  static Value to_value(TensorList v) { return Value(v.vec()); }
  static TensorList from_value(Value& v) { return v.get<std::vector<Tensor>>(); }
};
template <typename T>
struct Boxer<std::optional<T>> {
  static Value to_value(const std::optional<T>& v) { return v ? Boxer<T>::to_value(*v) : Value(); }
  static std::optional<T> from_value(Value& v) {
    if (v.is_none()) return std::nullopt;
    return std::optional<T>(Boxer<T>::from_value(v));
  }
};

template <typename T>
using boxer_t = Boxer<std::remove_cv_t<std::remove_reference_t<T>>>;

/// Pushes a result onto the stack (tuples push each element).
template <typename R>
void push_result(Stack& stack, R&& r) {
  using D = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (std::is_same_v<D, std::tuple<Tensor, Tensor>> ||
                std::is_same_v<D, std::tuple<Tensor, Tensor, Tensor>>) {
    std::apply([&](auto&... e) { (stack.emplace_back(e), ...); }, r);
  } else {
    stack.push_back(boxer_t<D>::to_value(r));
  }
}
/// Pops a result of type R from the stack the boxed kernel left.
template <typename R>
R pop_result(Stack& stack) {
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_same_v<R, std::tuple<Tensor, Tensor>>) {
    return {stack[0].tensor(), stack[1].tensor()};
  } else if constexpr (std::is_same_v<R, std::tuple<Tensor, Tensor, Tensor>>) {
    return {stack[0].tensor(), stack[1].tensor(), stack[2].tensor()};
  } else {
    return R(boxer_t<R>::from_value(stack[0]));
  }
}

/// Collects the dispatch keys of every tensor argument.
inline uint32_t keys_of(const Tensor& t) { return t.defined() ? t.key_set().raw() : 0u; }
inline uint32_t keys_of(const std::optional<Tensor>& t) { return t ? keys_of(*t) : 0u; }
inline uint32_t keys_of(TensorList l) {
  uint32_t k = 0;
  for (const auto& t : l) k |= keys_of(t);
  return k;
}
inline uint32_t keys_of(const std::vector<Tensor>& l) { return keys_of(TensorList(l)); }
inline uint32_t keys_of(Device d) { return DispatchKeySet(backend_key(d.type())).raw(); }
template <typename T>
inline uint32_t keys_of(const T&) {
  return 0u;
}

}  // namespace brasa::detail
