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

#include "brasa/core/array_ref.h"

namespace brasa {

template <typename T>
class OptionalArrayRef : public std::optional<ArrayRef<T>> {
  using Base = std::optional<ArrayRef<T>>;

 public:
  using Base::Base;
  constexpr OptionalArrayRef() = default;
  constexpr OptionalArrayRef(const Base& other) : Base(other) {}  // NOLINT: implicit
  // Like ArrayRef's: valid for the full expression that created the list (a call's arguments).
  constexpr OptionalArrayRef(const std::initializer_list<T>& il)  // NOLINT: implicit
      : Base(ArrayRef<T>(il)) {}
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

}  // namespace brasa
