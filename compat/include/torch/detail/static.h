#pragma once
// libtorch's compile-time checks on module types (torch::detail): whether a type is a Module,
// whether it has a forward, which type its forward returns for given arguments, and whether a
// list of argument types holds a non-const lvalue reference.

#include <type_traits>
#include <utility>

#include "brasa/nn/module.h"
#include "c10/brasa_namespaces.h"
#include "torch/csrc/utils/variadic.h"

namespace torch::detail {

template <typename T, typename = void>
struct has_forward : std::false_type {};
template <typename T>
struct has_forward<T, std::void_t<decltype(&T::forward)>> : std::true_type {};

/// False when one of the types is a non-const lvalue reference.
template <typename... Ts>
constexpr bool check_not_lvalue_references() {
  return ((!std::is_lvalue_reference_v<Ts> || std::is_const_v<std::remove_reference_t<Ts>>)&&...);
}

template <typename M>
using is_module = std::is_base_of<::brasa::nn::Module, std::decay_t<M>>;
template <typename M, typename T = void>
using enable_if_module_t = std::enable_if_t<is_module<M>::value, T>;

/// `type` is what M::forward returns when called with Args (void when M has no such forward).
template <typename M, typename... Args>
struct return_type_of_forward {
 private:
  template <typename C, typename = void>
  struct impl {
    using type = void;
  };
  template <typename C>
  struct impl<C, std::void_t<decltype(std::declval<C&>().forward(std::declval<Args>()...))>> {
    using type = decltype(std::declval<C&>().forward(std::declval<Args>()...));
  };

 public:
  using type = typename impl<M>::type;
};
template <typename M, typename... Args>
using return_type_of_forward_t = typename return_type_of_forward<M, Args...>::type;

}  // namespace torch::detail
