#pragma once
// The unary pointwise family (Note [Op declarations]): one line per op declares the dispatched op
// (self, out); its CPU stub is in backends/cpu/kernels/unary_kernels.h. unary_ops.cpp defines each
// op with its dtype rule (one BRASA_DEFINE_UNARY line); the loops are registered in
// backends/cpu/kernels/unary_kernels*.cpp (transcendental float ops in unary_kernels_float.cpp);
// derivatives in unary_grad.cpp.

#include "ops/pointwise/unary.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor? out) -> Tensor").
#define BRASA_DECLARE_UNARY(var, op_name)                                        \
  BRASA_DECLARE_OP(var, op_name, op_name "(Tensor self, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&))

namespace brasa::ops {

// Floating results (integral inputs promote to the default float).
BRASA_DECLARE_UNARY(reciprocal_op, "reciprocal");
// Complex conjugate (a copy for real dtypes); abs of a complex tensor is real (UnaryKind::Abs).
BRASA_DECLARE_UNARY(conj_physical_op, "conj_physical");
BRASA_DECLARE_UNARY(exp_op, "exp");
BRASA_DECLARE_UNARY(exp2_op, "exp2");
BRASA_DECLARE_UNARY(expm1_op, "expm1");
BRASA_DECLARE_UNARY(log_op, "log");
BRASA_DECLARE_UNARY(log2_op, "log2");
BRASA_DECLARE_UNARY(log10_op, "log10");
BRASA_DECLARE_UNARY(log1p_op, "log1p");
BRASA_DECLARE_UNARY(sqrt_op, "sqrt");
BRASA_DECLARE_UNARY(rsqrt_op, "rsqrt");
BRASA_DECLARE_UNARY(sin_op, "sin");
BRASA_DECLARE_UNARY(cos_op, "cos");
BRASA_DECLARE_UNARY(tan_op, "tan");
BRASA_DECLARE_UNARY(asin_op, "asin");
BRASA_DECLARE_UNARY(acos_op, "acos");
BRASA_DECLARE_UNARY(atan_op, "atan");
BRASA_DECLARE_UNARY(sinh_op, "sinh");
BRASA_DECLARE_UNARY(cosh_op, "cosh");
BRASA_DECLARE_UNARY(tanh_op, "tanh");
BRASA_DECLARE_UNARY(sigmoid_op, "sigmoid");
BRASA_DECLARE_UNARY(erf_op, "erf");
BRASA_DECLARE_UNARY(erfinv_op, "erfinv");

BRASA_DECLARE_UNARY(neg_op, "neg");
BRASA_DECLARE_UNARY(abs_op, "abs");
BRASA_DECLARE_UNARY(sign_op, "sign");
BRASA_DECLARE_UNARY(square_op, "square");
BRASA_DECLARE_UNARY(floor_op, "floor");
BRASA_DECLARE_UNARY(ceil_op, "ceil");
BRASA_DECLARE_UNARY(round_op, "round");
BRASA_DECLARE_UNARY(trunc_op, "trunc");
BRASA_DECLARE_UNARY(frac_op, "frac");
BRASA_DECLARE_UNARY(relu_op, "relu");
BRASA_DECLARE_UNARY(bitwise_not_op, "bitwise_not");
BRASA_DECLARE_UNARY(logical_not_op, "logical_not");
BRASA_DECLARE_UNARY(isnan_op, "isnan");
BRASA_ATEN(isnan_op, "no in_place");
BRASA_DECLARE_UNARY(isinf_op, "isinf");
BRASA_ATEN(isinf_op, "no in_place");
BRASA_DECLARE_UNARY(isfinite_op, "isfinite");
BRASA_ATEN(isfinite_op, "no in_place out");

}  // namespace brasa::ops
