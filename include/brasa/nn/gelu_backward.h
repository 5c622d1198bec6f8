#pragma once
// torch::gelu_backward / at::gelu_backward: gelu's fused derivative as a function (nn::functional
// and torch::gelu's autograd call the same op). Apart from the umbrella headers so that adding it
// rebuilt nothing; include it where it is used.

#include <string_view>

#include "brasa/core/macros.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// grad_output times gelu's derivative at self, in one pass; same shape and dtype (floating) for
/// both, else TypeError / ValueError naming gelu_backward. approximate: "none" or "tanh".
BRASA_API Tensor gelu_backward(const Tensor& grad_output, const Tensor& self,
                               std::string_view approximate = "none");

}  // namespace brasa
