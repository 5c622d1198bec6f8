#pragma once
// GELU as one dispatched op (and its backward), fused: one pass over the data each instead of the
// chain of pointwise ops the composite formula costs (Note [Op declarations]). Kernels in
// gelu.cpp (loops in backends/cpu/kernels/gelu_kernels.cpp), derivatives in gelu_grad.cpp;
// nn::functional::gelu calls gelu_op. `approximate` is "none" (erf) or "tanh".

#include <string>

#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(gelu_op, "gelu", "gelu(Tensor self, str approximate, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, std::string, const Tensor&));
BRASA_DECLARE_OP(gelu_backward_op, "gelu_backward",
                 "gelu_backward(Tensor grad_output, Tensor self, str approximate, Tensor? out) -> "
                 "Tensor",
                 Tensor(const Tensor&, const Tensor&, std::string, const Tensor&));
BRASA_ATEN(gelu_backward_op, "no in_place; out_name grad_input");

}  // namespace brasa::ops
