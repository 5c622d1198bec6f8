#pragma once
// Note [Enum options are EnumVariants]
// The enum options of nn (`reduction`, padding and interpolation modes, `nonlinearity`, conv
// `padding`, the transformer's `activation`) hold one of a few tag types (`torch::kMean`,
// `torch::kReflect`) and, for two of them, one value type (ExpandingArray<D>, a std::function).
// libtorch 1.13 keeps them in its own c10::variant, so its programs read them with c10::get_if,
// c10::holds_alternative, c10::get and c10::visit, never with std::'s functions: EnumVariant
// provides exactly those (brasa::nn::get_if, ..., and the c10:: spellings of c10/util/variant.h).
// It is a tag index plus one member per alternative: std::variant's machinery (storage unions,
// special-member bases, the converting constructor's overload set) was ~18 MB of the compiler's
// memory at its first use and a few MB per further option type in every program that includes
// <torch/torch.h>.
//
// A value converts from any of its alternatives and, when one alternative is not a tag, from what
// converts to that one (`.padding(1)` and `.padding({1, 2})` for ExpandingArray<2>,
// `.activation(lambda)`).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "brasa/core/macros.h"

namespace brasa::nn {
namespace detail {

template <typename T, typename... Ts>
constexpr std::size_t enum_variant_index() {
  constexpr bool same[] = {std::is_same_v<T, Ts>...};
  for (std::size_t i = 0; i < sizeof...(Ts); ++i)
    if (same[i]) return i;
  return sizeof...(Ts);
}

// The first alternative that is not an empty tag, or void.
template <typename... Ts>
struct EnumVariantPayload {
  using type = void;
};
template <typename T, typename... Ts>
struct EnumVariantPayload<T, Ts...> {
  using type = std::conditional_t<std::is_empty_v<T>, typename EnumVariantPayload<Ts...>::type, T>;
};

template <typename T, typename...>
struct EnumVariantFirst {
  using type = T;
};

// A value alternative without a default constructor (ExpandingArray<D>) starts as T(0); a braced
// `T value{}` would pick ExpandingArray's initializer-list constructor and throw.
template <typename T>
T enum_variant_default() {
  if constexpr (std::is_default_constructible_v<T>)
    return T();
  else
    return T(0);
}

template <typename T>
struct EnumVariantBox {
  T value = enum_variant_default<T>();
};

}  // namespace detail

template <typename... Ts>
class EnumVariant : private detail::EnumVariantBox<Ts>... {
  template <typename T>
  static constexpr std::size_t index_of = detail::enum_variant_index<T, Ts...>();
  using Payload = typename detail::EnumVariantPayload<Ts...>::type;

 public:
  /// Holds the first alternative, like std::variant.
  EnumVariant() = default;
  template <typename T, std::size_t I = index_of<std::decay_t<T>>,
            std::enable_if_t<(I < sizeof...(Ts)), int> = 0>
  EnumVariant(T&& value) : index_(I) {  // NOLINT(google-explicit-constructor)
    box<std::decay_t<T>>().value = std::forward<T>(value);
  }
  template <typename T, typename P = Payload,
            std::enable_if_t<index_of<std::decay_t<T>> == sizeof...(Ts) && !std::is_void_v<P> &&
                                 std::is_convertible_v<T&&, P>,
                             int> = 0>
  EnumVariant(T&& value) : index_(index_of<P>) {  // NOLINT(google-explicit-constructor)
    box<P>().value = P(std::forward<T>(value));
  }
  /// A list of sizes for a per-dimension payload (`Conv2dOptions(3, 8, 3).padding({1, 2})`).
  template <typename P = Payload,
            std::enable_if_t<std::is_constructible_v<P, std::initializer_list<int64_t>>, int> = 0>
  EnumVariant(std::initializer_list<int64_t> list) : index_(index_of<P>) {  // NOLINT
    box<P>().value = P(list);
  }

  /// The position of the alternative held, in the order of the template arguments.
  std::size_t index() const noexcept { return index_; }
  /// Always false: assigning an alternative cannot leave the value empty.
  constexpr bool valueless_by_exception() const noexcept { return false; }

  template <typename T>
  bool holds() const noexcept {
    static_assert(index_of<T> < sizeof...(Ts), "EnumVariant: not one of its alternatives");
    return index_ == index_of<T>;
  }
  template <typename T>
  T* get_if() noexcept {
    return holds<T>() ? &box<T>().value : nullptr;
  }
  template <typename T>
  const T* get_if() const noexcept {
    return holds<T>() ? &box<T>().value : nullptr;
  }

 private:
  template <typename T>
  detail::EnumVariantBox<T>& box() noexcept {
    return *this;
  }
  template <typename T>
  const detail::EnumVariantBox<T>& box() const noexcept {
    return *this;
  }

  std::size_t index_ = 0;
};

/// A pointer to the alternative T if `v` holds it, else nullptr (c10::get_if).
template <typename T, typename... Ts>
T* get_if(EnumVariant<Ts...>* v) noexcept {
  return v ? v->template get_if<T>() : nullptr;
}
template <typename T, typename... Ts>
const T* get_if(const EnumVariant<Ts...>* v) noexcept {
  return v ? v->template get_if<T>() : nullptr;
}
template <typename T, typename... Ts>
bool holds_alternative(const EnumVariant<Ts...>& v) noexcept {
  return v.template holds<T>();
}

namespace detail {
[[noreturn]] BRASA_API void throw_bad_enum_variant_access();
}  // namespace detail

/// The alternative T; std::bad_variant_access when `v` holds another (c10::get).
template <typename T, typename... Ts>
T& get(EnumVariant<Ts...>& v) {
  if (T* p = v.template get_if<T>()) return *p;
  detail::throw_bad_enum_variant_access();
}
template <typename T, typename... Ts>
const T& get(const EnumVariant<Ts...>& v) {
  if (const T* p = v.template get_if<T>()) return *p;
  detail::throw_bad_enum_variant_access();
}

namespace detail {
template <typename R, typename F, typename V, typename T>
R enum_variant_visit_one(F& f, V& v) {
  return std::forward<F>(f)(*v.template get_if<T>());
}
}  // namespace detail

/// f(the alternative held) (c10::visit); f is called with the same result type for every
/// alternative, that of the first.
template <typename F, typename... Ts>
decltype(auto) visit(F&& f, const EnumVariant<Ts...>& v) {
  using V = const EnumVariant<Ts...>;
  using First = typename detail::EnumVariantFirst<Ts...>::type;
  using R = decltype(std::declval<F>()(std::declval<const First&>()));
  static constexpr R (*table[])(F&, V&) = {&detail::enum_variant_visit_one<R, F, V, Ts>...};
  // index() < sizeof...(Ts) always; said again so that -Warray-bounds sees it at -O3.
  const std::size_t i = v.index();
  return table[i < sizeof...(Ts) ? i : 0](f, v);
}

}  // namespace brasa::nn
