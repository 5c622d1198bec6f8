#pragma once
// Half/BFloat16 inputs of composite functionals compute in float and round once at the end, like
// PyTorch's fused kernels (rounding every intermediate would cost several ulps).

#include "brasa/core/tensor.h"

namespace brasa::nn::functional::detail {

inline bool is_reduced(ScalarType t) { return t == kHalf || t == kBFloat16; }

/// f(input in float) rounded back to input's dtype for Half/BFloat16; f(input) otherwise.
template <typename F>
Tensor in_opmath(const Tensor& input, F&& f) {
  if (!is_reduced(input.scalar_type())) return f(input);
  return f(input.to(kFloat)).to(input.scalar_type());
}

}  // namespace brasa::nn::functional::detail
