#pragma once
// AnyValue (torch::nn::AnyValue), the type-erased value AnyModule passes to and from forward, and
// BRASA_FORWARD_HAS_DEFAULT_ARGS, with which a module tells AnyModule its forward's default
// arguments. Module headers include this rather than all of AnyModule.

#include <any>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "brasa/core/error.h"

namespace brasa::nn {

class AnyModule;
namespace detail {
BRASA_API std::string type_name(const std::type_info& type);  // brasa/nn/module.h
}

/// A type-erased value passed between modules: `value.get<T>()` (TypeError for another type).
class AnyValue {
 public:
  template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, AnyValue>>>
  explicit AnyValue(T&& value) : value_(std::forward<T>(value)) {}
  template <typename T>
  T* try_get() noexcept {
    return std::any_cast<T>(&value_);
  }
  template <typename T>
  T get() {
    T* p = try_get<T>();
    BRASA_CHECK_TYPE(p != nullptr, "AnyValue: Attempted to cast AnyValue to ",
                     detail::type_name(typeid(T)), ", but its actual type is ",
                     detail::type_name(value_.type()));
    return *p;
  }
  const std::type_info& type_info() const noexcept { return value_.type(); }

 private:
  std::any value_;
};

// Note [Forward default arguments]
// AnyModule (and so Sequential) calls forward with the arguments it is given, and C++ cannot see
// a method's default arguments. A module whose forward has defaults lists them with
// BRASA_FORWARD_HAS_DEFAULT_ARGS({index, AnyValue(value)}, ...) (libtorch's
// FORWARD_HAS_DEFAULT_ARGS), in order up to the last parameter; AnyModule then accepts from the
// first listed index up to all arguments and fills in the missing ones. The library's modules whose
// forward has defaults (ConvTranspose, EmbeddingBag, MaxUnpool, the RNNs and cells,
// MultiheadAttention, the Transformer modules) have libtorch's defaults, declared with
// BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED below.
#define BRASA_FORWARD_HAS_DEFAULT_ARGS(...)                                                    \
  friend class ::brasa::nn::AnyModule;                                                         \
  static std::vector<std::pair<unsigned int, ::brasa::nn::AnyValue>> _forward_default_args() { \
    return {__VA_ARGS__};                                                                      \
  }

// The library's modules declare the list here and define it in
// src/nn/modules/forward_default_args.cpp: building the AnyValues inline instantiated AnyValue's
// constructor and the vector's for every such module in every program that includes
// <torch/torch.h> (5 MB of g++'s memory for the hello world).
#define BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED \
  friend class ::brasa::nn::AnyModule;          \
  static std::vector<std::pair<unsigned int, ::brasa::nn::AnyValue>> _forward_default_args();

}  // namespace brasa::nn
