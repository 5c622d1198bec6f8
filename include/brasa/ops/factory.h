#pragma once
// Factory functions (libtorch spellings). Options default to the default dtype (Float) on the CPU.
// Throws ValueError for negative sizes, TypeError for an unsupported dtype.

#include <functional>
#include <optional>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa {

BRASA_API Tensor empty(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor empty_strided(IntArrayRef size, IntArrayRef stride,
                               const TensorOptions& options = {});
BRASA_API Tensor zeros(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor ones(IntArrayRef size, const TensorOptions& options = {});
BRASA_API Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options = {});
/// The _like forms take sizes, dtype and device from `self` unless options override them.
BRASA_API Tensor empty_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor zeros_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor ones_like(const Tensor& self, const TensorOptions& options = {});
BRASA_API Tensor full_like(const Tensor& self, const Scalar& fill_value,
                           const TensorOptions& options = {});
BRASA_API Tensor scalar_tensor(const Scalar& s, const TensorOptions& options = {});

}  // namespace brasa
