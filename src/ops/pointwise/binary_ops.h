#pragma once
// The binary pointwise family (Note [Op declarations]): one line per op declares the dispatched op
// (self, other, alpha, out) and its two CPU stubs (the iterator loop and the flat loop).
// binary_ops.cpp defines each op with its dtype rule (one BRASA_DEFINE_BINARY line), and
// backends/cpu/kernels/binary_kernels.cpp registers each op's loops; derivatives in
// binary_grad.cpp.

#include "ops/pointwise/binary.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor other, Scalar alpha, Tensor? out) -> Tensor")
/// and its stubs.
#define BRASA_DECLARE_BINARY(var, op_name, stub, flat_stub)                                    \
  BRASA_DECLARE_STUB(stub, BinaryKernel);                                                      \
  BRASA_DECLARE_STUB(flat_stub, FlatBinaryKernel);                                             \
  BRASA_DECLARE_OP(var, op_name,                                                               \
                   op_name "(Tensor self, Tensor other, Scalar alpha, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&))

namespace brasa::ops {

BRASA_DECLARE_BINARY(add_op, "add", add_stub, add_flat_stub);
BRASA_DECLARE_BINARY(sub_op, "sub", sub_stub, sub_flat_stub);
BRASA_DECLARE_BINARY(mul_op, "mul", mul_stub, mul_flat_stub);
BRASA_DECLARE_BINARY(div_op, "div", div_stub, div_flat_stub);
BRASA_DECLARE_BINARY(div_trunc_op, "div_trunc", div_trunc_stub, div_trunc_flat_stub);
BRASA_DECLARE_BINARY(floor_divide_op, "floor_divide", floor_divide_stub, floor_divide_flat_stub);
BRASA_DECLARE_BINARY(remainder_op, "remainder", remainder_stub, remainder_flat_stub);
BRASA_DECLARE_BINARY(fmod_op, "fmod", fmod_stub, fmod_flat_stub);
BRASA_DECLARE_BINARY(pow_op, "pow", pow_stub, pow_flat_stub);
BRASA_DECLARE_BINARY(atan2_op, "atan2", atan2_stub, atan2_flat_stub);
BRASA_DECLARE_BINARY(hypot_op, "hypot", hypot_stub, hypot_flat_stub);
BRASA_DECLARE_BINARY(maximum_op, "maximum", maximum_stub, maximum_flat_stub);
BRASA_DECLARE_BINARY(minimum_op, "minimum", minimum_stub, minimum_flat_stub);
BRASA_DECLARE_BINARY(threshold_backward_op, "threshold_backward", threshold_backward_stub,
                     threshold_backward_flat_stub);
BRASA_DECLARE_BINARY(eq_op, "eq", eq_stub, eq_flat_stub);
BRASA_DECLARE_BINARY(ne_op, "ne", ne_stub, ne_flat_stub);
BRASA_DECLARE_BINARY(lt_op, "lt", lt_stub, lt_flat_stub);
BRASA_DECLARE_BINARY(le_op, "le", le_stub, le_flat_stub);
BRASA_DECLARE_BINARY(gt_op, "gt", gt_stub, gt_flat_stub);
BRASA_DECLARE_BINARY(ge_op, "ge", ge_stub, ge_flat_stub);
BRASA_DECLARE_BINARY(logical_and_op, "logical_and", logical_and_stub, logical_and_flat_stub);
BRASA_DECLARE_BINARY(logical_or_op, "logical_or", logical_or_stub, logical_or_flat_stub);
BRASA_DECLARE_BINARY(logical_xor_op, "logical_xor", logical_xor_stub, logical_xor_flat_stub);
BRASA_DECLARE_BINARY(bitwise_and_op, "bitwise_and", bitwise_and_stub, bitwise_and_flat_stub);
BRASA_DECLARE_BINARY(bitwise_or_op, "bitwise_or", bitwise_or_stub, bitwise_or_flat_stub);
BRASA_DECLARE_BINARY(bitwise_xor_op, "bitwise_xor", bitwise_xor_stub, bitwise_xor_flat_stub);

}  // namespace brasa::ops
