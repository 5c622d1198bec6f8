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
BRASA_DECLARE_STUB(nextafter_stub, SpecialKernel);
// Integral dtypes only.
BRASA_DECLARE_STUB(gcd_stub, SpecialKernel);
BRASA_DECLARE_STUB(lcm_stub, SpecialKernel);
BRASA_DECLARE_STUB(left_shift_stub, SpecialKernel);
BRASA_DECLARE_STUB(right_shift_stub, SpecialKernel);
// The orthogonal polynomials p_n(x) of the special_ namespace: inputs (x, n).
BRASA_DECLARE_STUB(chebyshev_t_stub, SpecialKernel);
BRASA_DECLARE_STUB(chebyshev_u_stub, SpecialKernel);
BRASA_DECLARE_STUB(chebyshev_v_stub, SpecialKernel);
BRASA_DECLARE_STUB(chebyshev_w_stub, SpecialKernel);
BRASA_DECLARE_STUB(shifted_chebyshev_t_stub, SpecialKernel);
BRASA_DECLARE_STUB(shifted_chebyshev_u_stub, SpecialKernel);
BRASA_DECLARE_STUB(shifted_chebyshev_v_stub, SpecialKernel);
BRASA_DECLARE_STUB(shifted_chebyshev_w_stub, SpecialKernel);
BRASA_DECLARE_STUB(hermite_h_stub, SpecialKernel);
BRASA_DECLARE_STUB(hermite_he_stub, SpecialKernel);
BRASA_DECLARE_STUB(laguerre_l_stub, SpecialKernel);
BRASA_DECLARE_STUB(legendre_p_stub, SpecialKernel);
// The Bessel functions J0, J1, Y0, Y1, K0, K1, e^x K0, e^x K1 and Airy's Ai (float and double
// only; bessel_kernels.cpp).
BRASA_DECLARE_STUB(bessel_j0_stub, SpecialKernel);
BRASA_DECLARE_STUB(bessel_j1_stub, SpecialKernel);
BRASA_DECLARE_STUB(bessel_y0_stub, SpecialKernel);
BRASA_DECLARE_STUB(bessel_y1_stub, SpecialKernel);
BRASA_DECLARE_STUB(modified_bessel_k0_stub, SpecialKernel);
BRASA_DECLARE_STUB(modified_bessel_k1_stub, SpecialKernel);
BRASA_DECLARE_STUB(scaled_modified_bessel_k0_stub, SpecialKernel);
BRASA_DECLARE_STUB(scaled_modified_bessel_k1_stub, SpecialKernel);
BRASA_DECLARE_STUB(airy_ai_stub, SpecialKernel);
/// frexp: mantissa (input dtype) and int32 exponent of a contiguous floating input.
using FrexpKernel = void (*)(const Tensor& mantissa, const Tensor& exponent, const Tensor& in);
BRASA_DECLARE_STUB(frexp_stub, FrexpKernel);

}  // namespace brasa::ops
