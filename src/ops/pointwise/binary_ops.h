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
BRASA_ATEN(add_op, "scalar other");
BRASA_DECLARE_BINARY(sub_op, "sub");
BRASA_ATEN(sub_op, "scalar other");
BRASA_DECLARE_BINARY(mul_op, "mul");
BRASA_ATEN(mul_op, "drop alpha=1; scalar other");
BRASA_DECLARE_BINARY(div_op, "div");
BRASA_ATEN(div_op, "drop alpha=1; scalar other");
BRASA_DECLARE_BINARY(div_trunc_op, "div_trunc");
BRASA_ATEN(div_trunc_op,
           "div.Tensor_mode(self, other, str?='trunc') if alpha=1 out=None; "
           "div.Scalar_mode(self, Scalar other, str?='trunc') if alpha=1 out=None; "
           "div_.Tensor_mode(self, other, str?='trunc') if alpha=1 out=self; "
           "div_.Scalar_mode(self, Scalar other, str?='trunc') if alpha=1 out=self; "
           "div.out_mode(self, other, str?='trunc', out) if alpha=1 out=given");
BRASA_DECLARE_BINARY(floor_divide_op, "floor_divide");
BRASA_ATEN(floor_divide_op,
           "floor_divide(self, other) if alpha=1 out=None; "
           "floor_divide.Scalar(self, Scalar other) if alpha=1 out=None; "
           "floor_divide_.Tensor(self, other) if alpha=1 out=self; "
           "floor_divide_.Scalar(self, Scalar other) if alpha=1 out=self; "
           "floor_divide.out(self, other, out) if alpha=1 out=given");
BRASA_DECLARE_BINARY(remainder_op, "remainder");
BRASA_ATEN(remainder_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(fmod_op, "fmod");
BRASA_ATEN(fmod_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(pow_op, "pow");
BRASA_ATEN(pow_op,
           "pow.Tensor_Tensor(self, other) if alpha=1 out=None; "
           "pow.Tensor_Scalar(self, Scalar other) if alpha=1 out=None; "
           "pow.Scalar(Scalar self, other) if alpha=1 out=None; "
           "pow_.Tensor(self, other) if alpha=1 out=self; "
           "pow_.Scalar(self, Scalar other) if alpha=1 out=self; "
           "pow.Tensor_Tensor_out(self, other, out) if alpha=1 out=given; "
           "pow.Tensor_Scalar_out(self, Scalar other, out) if alpha=1 out=given");
BRASA_DECLARE_BINARY(atan2_op, "atan2");
BRASA_ATEN(atan2_op, "drop alpha=1");
BRASA_DECLARE_BINARY(hypot_op, "hypot");
BRASA_ATEN(hypot_op, "drop alpha=1");
BRASA_DECLARE_BINARY(maximum_op, "maximum");
BRASA_ATEN(maximum_op, "drop alpha=1; no in_place");
BRASA_DECLARE_BINARY(minimum_op, "minimum");
BRASA_ATEN(minimum_op, "drop alpha=1; no in_place");
BRASA_DECLARE_BINARY(threshold_backward_op, "threshold_backward");
BRASA_ATEN(threshold_backward_op,
           "threshold_backward(self, other, Scalar=0) if alpha=1 out=None; "
           "threshold_backward.grad_input(self, other, Scalar=0, out) if alpha=1 out=given");
BRASA_DECLARE_BINARY(eq_op, "eq");
BRASA_ATEN(eq_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(ne_op, "ne");
BRASA_ATEN(ne_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(lt_op, "lt");
BRASA_ATEN(lt_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(le_op, "le");
BRASA_ATEN(le_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(gt_op, "gt");
BRASA_ATEN(gt_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(ge_op, "ge");
BRASA_ATEN(ge_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(logical_and_op, "logical_and");
BRASA_ATEN(logical_and_op, "drop alpha=1");
BRASA_DECLARE_BINARY(logical_or_op, "logical_or");
BRASA_ATEN(logical_or_op, "drop alpha=1");
BRASA_DECLARE_BINARY(logical_xor_op, "logical_xor");
BRASA_ATEN(logical_xor_op, "drop alpha=1");
BRASA_DECLARE_BINARY(bitwise_and_op, "bitwise_and");
BRASA_ATEN(bitwise_and_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(bitwise_or_op, "bitwise_or");
BRASA_ATEN(bitwise_or_op, "drop alpha=1; scalar other; out_name Tensor_out");
BRASA_DECLARE_BINARY(bitwise_xor_op, "bitwise_xor");
BRASA_ATEN(bitwise_xor_op, "drop alpha=1; scalar other; out_name Tensor_out");

}  // namespace brasa::ops
