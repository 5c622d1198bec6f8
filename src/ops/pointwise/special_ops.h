#pragma once
// The special-function family (Note [Op declarations]): the dispatched ops with loops of their own
// in backends/cpu/kernels/special_kernels.cpp. special_ops.cpp defines them (the unary ones with
// the unary family's iterator, the binary ones with the binary family's) and the free functions of
// brasa/ops/special.h; derivatives in special_grad.cpp.

#include <tuple>

#include "backends/cpu/kernels/special_kernels.h"
#include "ops/pointwise/unary_ops.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor other, Tensor? out) -> Tensor").
#define BRASA_DECLARE_SPECIAL_BINARY(var, op_name)                                             \
  BRASA_DECLARE_OP(var, op_name, op_name "(Tensor self, Tensor other, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&, const Tensor&))

namespace brasa::ops {

BRASA_DECLARE_UNARY(acosh_op, "acosh");
BRASA_DECLARE_UNARY(asinh_op, "asinh");
BRASA_DECLARE_UNARY(atanh_op, "atanh");
BRASA_DECLARE_UNARY(erfc_op, "erfc");
BRASA_DECLARE_UNARY(lgamma_op, "lgamma");
BRASA_DECLARE_UNARY(digamma_op, "digamma");
BRASA_DECLARE_UNARY(i0_op, "i0");
BRASA_DECLARE_UNARY(special_i0e_op, "special_i0e");
BRASA_ATEN(special_i0e_op, "no in_place");
BRASA_DECLARE_UNARY(special_i1_op, "special_i1");
BRASA_ATEN(special_i1_op, "no in_place");
BRASA_DECLARE_UNARY(special_i1e_op, "special_i1e");
BRASA_ATEN(special_i1e_op, "no in_place");
BRASA_DECLARE_UNARY(special_ndtri_op, "special_ndtri");
BRASA_ATEN(special_ndtri_op, "no in_place");
BRASA_DECLARE_UNARY(special_erfcx_op, "special_erfcx");
BRASA_ATEN(special_erfcx_op, "no in_place");
BRASA_DECLARE_UNARY(signbit_op, "signbit");
BRASA_ATEN(signbit_op, "no in_place");
BRASA_DECLARE_SPECIAL_BINARY(special_zeta_op, "special_zeta");
BRASA_ATEN(special_zeta_op, "no in_place");
BRASA_DECLARE_SPECIAL_BINARY(igamma_op, "igamma");
BRASA_DECLARE_SPECIAL_BINARY(igammac_op, "igammac");
BRASA_DECLARE_SPECIAL_BINARY(nextafter_op, "nextafter");
BRASA_DECLARE_SPECIAL_BINARY(gcd_op, "gcd");
BRASA_DECLARE_SPECIAL_BINARY(lcm_op, "lcm");
BRASA_DECLARE_SPECIAL_BINARY(bitwise_left_shift_op, "bitwise_left_shift");
BRASA_ATEN(bitwise_left_shift_op,
           "bitwise_left_shift.Tensor(self, other) if out=None; "
           "bitwise_left_shift_.Tensor(self, other) if out=self; "
           "bitwise_left_shift.Tensor_out(self, other, out) if out=given");
BRASA_DECLARE_SPECIAL_BINARY(bitwise_right_shift_op, "bitwise_right_shift");
BRASA_ATEN(bitwise_right_shift_op,
           "bitwise_right_shift.Tensor(self, other) if out=None; "
           "bitwise_right_shift_.Tensor(self, other) if out=self; "
           "bitwise_right_shift.Tensor_out(self, other, out) if out=given");
BRASA_DECLARE_OP(frexp_op, "frexp",
                 "frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)",
                 std::tuple<Tensor, Tensor>(const Tensor&));

// The Bessel functions J0, J1, Y0, Y1, K0, K1, e^x K0, e^x K1 and Airy's Ai: float and double
// (integral inputs promote to the default float; Half and BFloat16 raise TypeError, as in PyTorch
// 1.13); non-differentiable, as in PyTorch.
BRASA_DECLARE_UNARY(special_bessel_j0_op, "special_bessel_j0");
BRASA_ATEN(special_bessel_j0_op, "no in_place");
BRASA_DECLARE_UNARY(special_bessel_j1_op, "special_bessel_j1");
BRASA_ATEN(special_bessel_j1_op, "no in_place");
BRASA_DECLARE_UNARY(special_bessel_y0_op, "special_bessel_y0");
BRASA_ATEN(special_bessel_y0_op, "no in_place");
BRASA_DECLARE_UNARY(special_bessel_y1_op, "special_bessel_y1");
BRASA_ATEN(special_bessel_y1_op, "no in_place");
BRASA_DECLARE_UNARY(special_modified_bessel_k0_op, "special_modified_bessel_k0");
BRASA_ATEN(special_modified_bessel_k0_op, "no in_place");
BRASA_DECLARE_UNARY(special_modified_bessel_k1_op, "special_modified_bessel_k1");
BRASA_ATEN(special_modified_bessel_k1_op, "no in_place");
BRASA_DECLARE_UNARY(special_scaled_modified_bessel_k0_op, "special_scaled_modified_bessel_k0");
BRASA_ATEN(special_scaled_modified_bessel_k0_op, "no in_place");
BRASA_DECLARE_UNARY(special_scaled_modified_bessel_k1_op, "special_scaled_modified_bessel_k1");
BRASA_ATEN(special_scaled_modified_bessel_k1_op, "no in_place");
BRASA_DECLARE_UNARY(special_airy_ai_op, "special_airy_ai");
BRASA_ATEN(special_airy_ai_op, "no in_place");

// The orthogonal polynomials p_n(x) (non-differentiable, as in PyTorch).
#define BRASA_DECLARE_POLYNOMIAL(var, op_name)                                          \
  BRASA_DECLARE_OP(var, op_name, op_name "(Tensor x, Tensor n, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&, const Tensor&));                \
  BRASA_ATEN(var, "no in_place")
BRASA_DECLARE_POLYNOMIAL(chebyshev_t_op, "special_chebyshev_polynomial_t");
BRASA_DECLARE_POLYNOMIAL(chebyshev_u_op, "special_chebyshev_polynomial_u");
BRASA_DECLARE_POLYNOMIAL(chebyshev_v_op, "special_chebyshev_polynomial_v");
BRASA_DECLARE_POLYNOMIAL(chebyshev_w_op, "special_chebyshev_polynomial_w");
BRASA_DECLARE_POLYNOMIAL(shifted_chebyshev_t_op, "special_shifted_chebyshev_polynomial_t");
BRASA_DECLARE_POLYNOMIAL(shifted_chebyshev_u_op, "special_shifted_chebyshev_polynomial_u");
BRASA_DECLARE_POLYNOMIAL(shifted_chebyshev_v_op, "special_shifted_chebyshev_polynomial_v");
BRASA_DECLARE_POLYNOMIAL(shifted_chebyshev_w_op, "special_shifted_chebyshev_polynomial_w");
BRASA_DECLARE_POLYNOMIAL(hermite_h_op, "special_hermite_polynomial_h");
BRASA_DECLARE_POLYNOMIAL(hermite_he_op, "special_hermite_polynomial_he");
BRASA_DECLARE_POLYNOMIAL(laguerre_l_op, "special_laguerre_polynomial_l");
BRASA_DECLARE_POLYNOMIAL(legendre_p_op, "special_legendre_polynomial_p");
#undef BRASA_DECLARE_POLYNOMIAL

}  // namespace brasa::ops
