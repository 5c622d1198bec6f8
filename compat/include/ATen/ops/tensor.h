#pragma once
// at::tensor: libtorch's ATen form, which differs from torch::tensor (brasa::tensor, nested
// braced lists of any depth): it takes one C++ scalar, a braced list or an ArrayRef/vector of one
// element type T, always makes a 1-d tensor (a scalar gives one element), and without options its
// dtype is T's (at::tensor(123) is Int where torch::tensor(123) is a 0-d Long).
//
// Note [One at::tensor body]: the forms below pass a pointer, a count and T's dtype to one inline
// function instead of instantiating a template per element type (twelve of them, 40 ms of
// clang's time in every program that includes <torch/torch.h>).
//
// Declaring at::tensor in namespace at hides brasa::tensor from `at::tensor(...)`, as in libtorch
// where at:: has only these forms; torch::tensor keeps brasa's.
#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "brasa/core/error.h"
#include "brasa/functions.h"
#include "c10/brasa_namespaces.h"

namespace brasa::detail {
/// The 1-d tensor of the n values of dtype `from` at data, with options' dtype and device
/// (libtorch's tensor_cpu). Complex values need a complex dtype: libtorch's kernel has no
/// conversion to a real one. One body for every element type (Note [One at::tensor body]).
inline Tensor at_tensor_of(const void* data, int64_t n, ScalarType from, TensorOptions options) {
  BRASA_CHECK_TYPE(!::brasa::is_complex_type(from) || ::brasa::is_complex_type(options.dtype()),
                   "at::tensor: complex values cannot make a tensor of dtype ", options.dtype(),
                   " (\"tensor_cpu\" not implemented for '", options.dtype(), "')");
  const bool requires_grad = options.requires_grad();
  Tensor result = ::brasa::empty({n}, options.requires_grad(false));
  result.copy_(::brasa::from_blob(const_cast<void*>(data), {n}, TensorOptions(from)));
  if (requires_grad) result.set_requires_grad(true);
  return result;
}
}  // namespace brasa::detail

namespace at {

#define BRASA_COMPAT_AT_TENSOR(T, name)                                                      \
  inline Tensor tensor(ArrayRef<T> values, const TensorOptions& options) {                   \
    return ::brasa::detail::at_tensor_of(values.data(), static_cast<int64_t>(values.size()), \
                                         ScalarType::name, options);                         \
  }                                                                                          \
  inline Tensor tensor(ArrayRef<T> values) {                                                 \
    return tensor(values, TensorOptions(ScalarType::name));                                  \
  }                                                                                          \
  inline Tensor tensor(std::initializer_list<T> values, const TensorOptions& options) {      \
    return tensor(ArrayRef<T>(values.begin(), values.size()), options);                      \
  }                                                                                          \
  inline Tensor tensor(std::initializer_list<T> values) {                                    \
    return tensor(ArrayRef<T>(values.begin(), values.size()));                               \
  }                                                                                          \
  inline Tensor tensor(T value, const TensorOptions& options) {                              \
    return tensor(ArrayRef<T>(&value, 1), options);                                          \
  }                                                                                          \
  inline Tensor tensor(T value) { return tensor(ArrayRef<T>(&value, 1)); }
BRASA_FORALL_SCALAR_TYPES(BRASA_COMPAT_AT_TENSOR)
#undef BRASA_COMPAT_AT_TENSOR

}  // namespace at
