#pragma once
// The special-function family's kernel interface (lgamma, digamma, Bessel I0/I1, ndtri, zeta,
// incomplete gamma, ...): one stub per op, registered in special_kernels.cpp and called from
// src/ops/pointwise/special_ops.cpp. Each takes the op's built iterator (one input for the unary
// ops, two for special_zeta / igamma / igammac).

#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

using SpecialKernel = void (*)(cpu::TensorIterator& it);

BRASA_DECLARE_STUB(acosh_stub, SpecialKernel);
BRASA_DECLARE_STUB(asinh_stub, SpecialKernel);
BRASA_DECLARE_STUB(atanh_stub, SpecialKernel);
BRASA_DECLARE_STUB(erfc_stub, SpecialKernel);
BRASA_DECLARE_STUB(lgamma_stub, SpecialKernel);
BRASA_DECLARE_STUB(digamma_stub, SpecialKernel);
BRASA_DECLARE_STUB(i0_stub, SpecialKernel);
BRASA_DECLARE_STUB(i0e_stub, SpecialKernel);
BRASA_DECLARE_STUB(i1_stub, SpecialKernel);
BRASA_DECLARE_STUB(i1e_stub, SpecialKernel);
BRASA_DECLARE_STUB(ndtri_stub, SpecialKernel);
BRASA_DECLARE_STUB(erfcx_stub, SpecialKernel);
BRASA_DECLARE_STUB(signbit_stub, SpecialKernel);
BRASA_DECLARE_STUB(zeta_stub, SpecialKernel);
BRASA_DECLARE_STUB(igamma_stub, SpecialKernel);
BRASA_DECLARE_STUB(igammac_stub, SpecialKernel);

}  // namespace brasa::ops
