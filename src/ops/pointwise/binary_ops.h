#pragma once
// The binary pointwise family (Note [Op declarations]): one line per op declares the dispatched op
// (self, other, alpha, out); its two CPU stubs are in backends/cpu/kernels/binary_kernels.h.
// binary_ops.cpp defines each op with its dtype rule (one BRASA_DEFINE_BINARY line), and
// backends/cpu/kernels/binary_kernels.cpp registers each op's loops; derivatives in
// binary_grad.cpp.

#include "ops/pointwise/binary.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor other, Scalar alpha, Tensor? out) -> Tensor")
#define BRASA_DECLARE_BINARY(var, op_name)                                                     \
  BRASA_DECLARE_OP(var, op_name,                                                               \
                   op_name "(Tensor self, Tensor other, Scalar alpha, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&))

namespace brasa::ops {

BRASA_DECLARE_BINARY(add_op, "add");
BRASA_DECLARE_BINARY(sub_op, "sub");
BRASA_DECLARE_BINARY(mul_op, "mul");
BRASA_DECLARE_BINARY(div_op, "div");
BRASA_DECLARE_BINARY(div_trunc_op, "div_trunc");
BRASA_DECLARE_BINARY(floor_divide_op, "floor_divide");
BRASA_DECLARE_BINARY(remainder_op, "remainder");
BRASA_DECLARE_BINARY(fmod_op, "fmod");
BRASA_DECLARE_BINARY(pow_op, "pow");
BRASA_DECLARE_BINARY(atan2_op, "atan2");
BRASA_DECLARE_BINARY(hypot_op, "hypot");
BRASA_DECLARE_BINARY(maximum_op, "maximum");
BRASA_DECLARE_BINARY(minimum_op, "minimum");
BRASA_DECLARE_BINARY(threshold_backward_op, "threshold_backward");
BRASA_DECLARE_BINARY(eq_op, "eq");
BRASA_DECLARE_BINARY(ne_op, "ne");
BRASA_DECLARE_BINARY(lt_op, "lt");
BRASA_DECLARE_BINARY(le_op, "le");
BRASA_DECLARE_BINARY(gt_op, "gt");
BRASA_DECLARE_BINARY(ge_op, "ge");
BRASA_DECLARE_BINARY(logical_and_op, "logical_and");
BRASA_DECLARE_BINARY(logical_or_op, "logical_or");
BRASA_DECLARE_BINARY(logical_xor_op, "logical_xor");
BRASA_DECLARE_BINARY(bitwise_and_op, "bitwise_and");
BRASA_DECLARE_BINARY(bitwise_or_op, "bitwise_or");
BRASA_DECLARE_BINARY(bitwise_xor_op, "bitwise_xor");

}  // namespace brasa::ops
