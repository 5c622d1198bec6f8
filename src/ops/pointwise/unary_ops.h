#pragma once
// The unary pointwise family (Note [Op declarations]): one line per op declares the dispatched op
// (self, out) and its CPU stub. unary_ops.cpp defines each op with its dtype rule (one
// BRASA_DEFINE_UNARY line); the loops are registered in backends/cpu/kernels/unary_kernels*.cpp
// (transcendental float ops in unary_kernels_float.cpp); derivatives in unary_grad.cpp.

#include "ops/pointwise/unary.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor? out) -> Tensor") and its stub.
#define BRASA_DECLARE_UNARY(var, op_name, stub)                                  \
  BRASA_DECLARE_STUB(stub, UnaryKernel);                                         \
  BRASA_DECLARE_OP(var, op_name, op_name "(Tensor self, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&))

namespace brasa::ops {

// Floating results (integral inputs promote to the default float).
BRASA_DECLARE_UNARY(reciprocal_op, "reciprocal", reciprocal_stub);
BRASA_DECLARE_UNARY(exp_op, "exp", exp_stub);
BRASA_DECLARE_UNARY(exp2_op, "exp2", exp2_stub);
BRASA_DECLARE_UNARY(expm1_op, "expm1", expm1_stub);
BRASA_DECLARE_UNARY(log_op, "log", log_stub);
BRASA_DECLARE_UNARY(log2_op, "log2", log2_stub);
BRASA_DECLARE_UNARY(log10_op, "log10", log10_stub);
BRASA_DECLARE_UNARY(log1p_op, "log1p", log1p_stub);
BRASA_DECLARE_UNARY(sqrt_op, "sqrt", sqrt_stub);
BRASA_DECLARE_UNARY(rsqrt_op, "rsqrt", rsqrt_stub);
BRASA_DECLARE_UNARY(sin_op, "sin", sin_stub);
BRASA_DECLARE_UNARY(cos_op, "cos", cos_stub);
BRASA_DECLARE_UNARY(tan_op, "tan", tan_stub);
BRASA_DECLARE_UNARY(asin_op, "asin", asin_stub);
BRASA_DECLARE_UNARY(acos_op, "acos", acos_stub);
BRASA_DECLARE_UNARY(atan_op, "atan", atan_stub);
BRASA_DECLARE_UNARY(sinh_op, "sinh", sinh_stub);
BRASA_DECLARE_UNARY(cosh_op, "cosh", cosh_stub);
BRASA_DECLARE_UNARY(tanh_op, "tanh", tanh_stub);
BRASA_DECLARE_UNARY(sigmoid_op, "sigmoid", sigmoid_stub);
BRASA_DECLARE_UNARY(erf_op, "erf", erf_stub);
BRASA_DECLARE_UNARY(erfinv_op, "erfinv", erfinv_stub);

BRASA_DECLARE_UNARY(neg_op, "neg", neg_stub);
BRASA_DECLARE_UNARY(abs_op, "abs", abs_stub);
BRASA_DECLARE_UNARY(sign_op, "sign", sign_stub);
BRASA_DECLARE_UNARY(square_op, "square", square_stub);
BRASA_DECLARE_UNARY(floor_op, "floor", floor_stub);
BRASA_DECLARE_UNARY(ceil_op, "ceil", ceil_stub);
BRASA_DECLARE_UNARY(round_op, "round", round_stub);
BRASA_DECLARE_UNARY(trunc_op, "trunc", trunc_stub);
BRASA_DECLARE_UNARY(frac_op, "frac", frac_stub);
BRASA_DECLARE_UNARY(relu_op, "relu", relu_stub);
BRASA_DECLARE_UNARY(bitwise_not_op, "bitwise_not", bitwise_not_stub);
BRASA_DECLARE_UNARY(logical_not_op, "logical_not", logical_not_stub);
BRASA_DECLARE_UNARY(isnan_op, "isnan", isnan_stub);
BRASA_DECLARE_UNARY(isinf_op, "isinf", isinf_stub);
BRASA_DECLARE_UNARY(isfinite_op, "isfinite", isfinite_stub);

}  // namespace brasa::ops
