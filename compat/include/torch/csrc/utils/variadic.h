#pragma once
// libtorch's small template helpers for variadic code, which its C++ frontend headers and tests
// use: torch::enable_if_t / disable_if_t, the compile-time folds all_of / any_of / none_of over
// bool packs, and torch::apply(f, xs...), which calls f on each argument in order.

#include <type_traits>
#include <utility>

namespace torch {

template <bool value, typename T = void>
using enable_if_t = std::enable_if_t<value, T>;
template <bool value, typename T = void>
using disable_if_t = std::enable_if_t<!value, T>;
template <typename T>
using decay_t = std::decay_t<T>;

template <bool... values>
struct all_of : std::bool_constant<(values && ...)> {};
template <bool... values>
struct any_of : std::bool_constant<(values || ...)> {};
template <bool... values>
struct none_of : std::bool_constant<!(values || ...)> {};

template <bool... values>
using enable_if_all_of_t = enable_if_t<all_of<values...>::value>;

/// Calls function(x) for each argument, left to right.
template <typename Function, typename... Ts>
void apply(Function function, Ts&&... ts) {
  (function(std::forward<Ts>(ts)), ...);
}

}  // namespace torch
