#pragma once
// The unary pointwise family's kernel interface: one stub per op, registered per CPU capability in
// unary_kernels.cpp and unary_kernels_float.cpp and called from src/ops/pointwise/unary_ops.cpp.

#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

using UnaryKernel = void (*)(cpu::TensorIterator& it);

BRASA_DECLARE_STUB(reciprocal_stub, UnaryKernel);
BRASA_DECLARE_STUB(exp_stub, UnaryKernel);
BRASA_DECLARE_STUB(exp2_stub, UnaryKernel);
BRASA_DECLARE_STUB(expm1_stub, UnaryKernel);
BRASA_DECLARE_STUB(log_stub, UnaryKernel);
BRASA_DECLARE_STUB(log2_stub, UnaryKernel);
BRASA_DECLARE_STUB(log10_stub, UnaryKernel);
BRASA_DECLARE_STUB(log1p_stub, UnaryKernel);
BRASA_DECLARE_STUB(sqrt_stub, UnaryKernel);
BRASA_DECLARE_STUB(rsqrt_stub, UnaryKernel);
BRASA_DECLARE_STUB(sin_stub, UnaryKernel);
BRASA_DECLARE_STUB(cos_stub, UnaryKernel);
BRASA_DECLARE_STUB(tan_stub, UnaryKernel);
BRASA_DECLARE_STUB(asin_stub, UnaryKernel);
BRASA_DECLARE_STUB(acos_stub, UnaryKernel);
BRASA_DECLARE_STUB(atan_stub, UnaryKernel);
BRASA_DECLARE_STUB(sinh_stub, UnaryKernel);
BRASA_DECLARE_STUB(cosh_stub, UnaryKernel);
BRASA_DECLARE_STUB(tanh_stub, UnaryKernel);
BRASA_DECLARE_STUB(sigmoid_stub, UnaryKernel);
BRASA_DECLARE_STUB(erf_stub, UnaryKernel);
BRASA_DECLARE_STUB(erfinv_stub, UnaryKernel);
BRASA_DECLARE_STUB(neg_stub, UnaryKernel);
BRASA_DECLARE_STUB(abs_stub, UnaryKernel);
BRASA_DECLARE_STUB(conj_physical_stub, UnaryKernel);
BRASA_DECLARE_STUB(sign_stub, UnaryKernel);
BRASA_DECLARE_STUB(square_stub, UnaryKernel);
BRASA_DECLARE_STUB(floor_stub, UnaryKernel);
BRASA_DECLARE_STUB(ceil_stub, UnaryKernel);
BRASA_DECLARE_STUB(round_stub, UnaryKernel);
BRASA_DECLARE_STUB(trunc_stub, UnaryKernel);
BRASA_DECLARE_STUB(frac_stub, UnaryKernel);
BRASA_DECLARE_STUB(relu_stub, UnaryKernel);
BRASA_DECLARE_STUB(bitwise_not_stub, UnaryKernel);
BRASA_DECLARE_STUB(logical_not_stub, UnaryKernel);
BRASA_DECLARE_STUB(isnan_stub, UnaryKernel);
BRASA_DECLARE_STUB(isinf_stub, UnaryKernel);
BRASA_DECLARE_STUB(isfinite_stub, UnaryKernel);

}  // namespace brasa::ops
