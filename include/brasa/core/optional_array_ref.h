#pragma once
// OptionalArrayRef<T> (c10::OptionalArrayRef): an optional list argument, such as the dims of
// nansum or var, that a braced list converts to safely.
//
// Note [Optional list arguments]
// A parameter of type std::optional<IntArrayRef> given `{1}` is built through optional's
// converting constructor, and GCC ends the life of the list's elements before the call runs at
// -O2 (the callee read a stale stack slot: nansum(x, {1}) reduced over a garbage dim). This class
// takes the braced list in a constructor of its own, so the list lives for the whole call, as
// it does for an IntArrayRef parameter. It is a std::optional<ArrayRef<T>> in every other way.

#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>

#include "brasa/core/array_ref.h"

namespace brasa {

//
// A single value (`x.var(0)`) is the same trap: optional's converting constructor would convert
// the int to T inside itself and keep a reference to that temporary. Here a value of another type
// converts at the call site to the `const T&` parameter, whose temporary lives for the call (the
// case of libtorch's OptionalArrayRefTest.DanglingPointerFix).
template <typename T>
class OptionalArrayRef : public std::optional<ArrayRef<T>> {
  using Base = std::optional<ArrayRef<T>>;
  template <typename U>
  static constexpr bool kList =
      !std::is_same_v<std::decay_t<U>, OptionalArrayRef> &&
      !std::is_same_v<std::decay_t<U>, Base> && std::is_convertible_v<U&&, ArrayRef<T>> &&
      (std::is_same_v<std::decay_t<U>, T> || !std::is_convertible_v<U&&, T>);

 public:
  constexpr OptionalArrayRef() = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}          // NOLINT: implicit
  constexpr OptionalArrayRef(const Base& other) : Base(other) {}  // NOLINT: implicit
  // Like ArrayRef's: valid for the full expression that created the list (a call's arguments).
  constexpr OptionalArrayRef(const std::initializer_list<T>& il)  // NOLINT: implicit
      : Base(ArrayRef<T>(il)) {}
  constexpr OptionalArrayRef(const T& value) : Base(ArrayRef<T>(value)) {}  // NOLINT: implicit
  /// Anything an ArrayRef<T> is made from (a vector, an ArrayRef, an array).
  template <typename U, std::enable_if_t<kList<U>, int> = 0>
  constexpr OptionalArrayRef(U&& list) : Base(ArrayRef<T>(std::forward<U>(list))) {}  // NOLINT
  template <typename U, std::enable_if_t<std::is_constructible_v<ArrayRef<T>, const U&>, int> = 0>
  constexpr OptionalArrayRef(const std::optional<U>& other)  // NOLINT: implicit
      : Base(other ? Base(ArrayRef<T>(*other)) : Base()) {}
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

}  // namespace brasa
