#pragma once
// Special functions (libtorch spellings): the inverse hyperbolic functions, gamma-family functions,
// modified Bessel functions, the normal distribution's functions, Hurwitz zeta and the regularized
// incomplete gamma functions, as at::/torch:: free functions and under their `special_` names
// (torch::special::NAME is the same function: <torch/special.h>). Integral and bool inputs promote
// to the default float dtype; complex inputs raise TypeError. Results follow PyTorch's conventions
// at poles and outside the domain (NaN, +-inf). `_out` forms write into `out` (resized when it has
// no elements) and return it.

#include <optional>

#include "brasa/core/tensor.h"

namespace brasa {

#define BRASA_SPECIAL_UNARY(name)            \
  BRASA_API Tensor name(const Tensor& self); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self);
#define BRASA_SPECIAL_BINARY(name)                                \
  BRASA_API Tensor name(const Tensor& self, const Tensor& other); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
#define BRASA_SPECIAL_BINARY_SCALARS(name)                                            \
  BRASA_SPECIAL_BINARY(name)                                                          \
  BRASA_API Tensor name(const Tensor& self, const Scalar& other);                     \
  BRASA_API Tensor name(const Scalar& self, const Tensor& other);                     \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other); \
  BRASA_API Tensor& name##_out(Tensor& out, const Scalar& self, const Tensor& other);

// ---- with kernels of their own ----
BRASA_SPECIAL_UNARY(acosh)
BRASA_SPECIAL_UNARY(asinh)
BRASA_SPECIAL_UNARY(atanh)
BRASA_SPECIAL_UNARY(arccosh)
BRASA_SPECIAL_UNARY(arcsinh)
BRASA_SPECIAL_UNARY(arctanh)
/// 1 - erf(x), accurate where erf(x) is close to 1.
BRASA_SPECIAL_UNARY(erfc)
/// log|Gamma(x)| (inf at the poles).
BRASA_SPECIAL_UNARY(lgamma)
/// d/dx log Gamma(x): -inf at +0, +inf at -0, NaN at the negative integers.
BRASA_SPECIAL_UNARY(digamma)
/// Modified Bessel function of the first kind, order 0.
BRASA_SPECIAL_UNARY(i0)
/// Whether the sign bit is set (Bool; -0.0 and -NaN count as negative); TypeError for complex.
BRASA_API Tensor signbit(const Tensor& self);
BRASA_API Tensor& signbit_out(Tensor& out, const Tensor& self);
/// Regularized lower / upper incomplete gamma functions P(self, other), Q(self, other).
BRASA_SPECIAL_BINARY(igamma)
BRASA_SPECIAL_BINARY(igammac)

// ---- compositions ----
/// The n-th derivative of digamma (n >= 0; ValueError otherwise).
BRASA_API Tensor polygamma(int64_t n, const Tensor& self);
BRASA_API Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self);
/// Multivariate log-gamma of dimension p >= 1 (ValueError otherwise); defined for x > (p - 1) / 2.
BRASA_API Tensor mvlgamma(const Tensor& self, int64_t p);
BRASA_API Tensor& mvlgamma_out(Tensor& out, const Tensor& self, int64_t p);
/// log(x / (1 - x)), with x clamped to [eps, 1 - eps] when eps is given.
BRASA_API Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt);
BRASA_API Tensor& logit_out(Tensor& out, const Tensor& self,
                            std::optional<double> eps = std::nullopt);

// ---- the special_ names ----
BRASA_SPECIAL_UNARY(special_i0e)
BRASA_SPECIAL_UNARY(special_i1)
BRASA_SPECIAL_UNARY(special_i1e)
/// Inverse of the standard normal CDF (NaN outside [0, 1]).
BRASA_SPECIAL_UNARY(special_ndtri)
/// exp(x^2) erfc(x).
BRASA_SPECIAL_UNARY(special_erfcx)
/// The standard normal CDF and its logarithm (accurate in the lower tail).
BRASA_SPECIAL_UNARY(special_ndtr)
BRASA_SPECIAL_UNARY(special_log_ndtr)
/// -x log x (0 at 0, -inf for x < 0).
BRASA_SPECIAL_UNARY(special_entr)
/// Hurwitz zeta sum_k (other + k)^-self.
BRASA_SPECIAL_BINARY_SCALARS(special_zeta)
/// x * log1p(y), 0 where x == 0 (unless y is NaN).
BRASA_SPECIAL_BINARY_SCALARS(special_xlog1py)
BRASA_SPECIAL_BINARY_SCALARS(special_xlogy)
BRASA_SPECIAL_BINARY(special_gammainc)
BRASA_SPECIAL_BINARY(special_gammaincc)
BRASA_SPECIAL_UNARY(special_i0)
BRASA_SPECIAL_UNARY(special_digamma)
BRASA_SPECIAL_UNARY(special_psi)
BRASA_SPECIAL_UNARY(special_gammaln)
BRASA_SPECIAL_UNARY(special_erf)
BRASA_SPECIAL_UNARY(special_erfc)
BRASA_SPECIAL_UNARY(special_erfinv)
BRASA_SPECIAL_UNARY(special_expm1)
BRASA_SPECIAL_UNARY(special_exp2)
BRASA_SPECIAL_UNARY(special_expit)
BRASA_SPECIAL_UNARY(special_log1p)
BRASA_SPECIAL_UNARY(special_sinc)
BRASA_API Tensor special_round(const Tensor& self, int64_t decimals = 0);
BRASA_API Tensor& special_round_out(Tensor& out, const Tensor& self, int64_t decimals = 0);
BRASA_API Tensor special_logit(const Tensor& self, std::optional<double> eps = std::nullopt);
BRASA_API Tensor& special_logit_out(Tensor& out, const Tensor& self,
                                    std::optional<double> eps = std::nullopt);
BRASA_API Tensor special_polygamma(int64_t n, const Tensor& self);
BRASA_API Tensor& special_polygamma_out(Tensor& out, int64_t n, const Tensor& self);
BRASA_API Tensor special_multigammaln(const Tensor& self, int64_t p);
BRASA_API Tensor& special_multigammaln_out(Tensor& out, const Tensor& self, int64_t p);
BRASA_API Tensor special_softmax(const Tensor& self, int64_t dim,
                                 std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor special_log_softmax(const Tensor& self, int64_t dim,
                                     std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor special_logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);
/// I0 and I1 under their special_modified_bessel_ names; j0(x) = sin(x) / x (1 at 0).
BRASA_SPECIAL_UNARY(special_modified_bessel_i0)
BRASA_SPECIAL_UNARY(special_modified_bessel_i1)
BRASA_SPECIAL_UNARY(special_spherical_bessel_j0)
/// Bessel functions of the first and second kind J0, J1, Y0, Y1 (Y: -inf at 0, NaN below), the
/// modified Bessel functions of the second kind K0, K1 and their scaled forms e^x K0(x), e^x K1(x)
/// (inf at 0, NaN below), and the Airy function Ai. Float and double (integral inputs promote to
/// the default float; Half/BFloat16 raise TypeError, as in libtorch 1.13). Not differentiable.
BRASA_SPECIAL_UNARY(special_bessel_j0)
BRASA_SPECIAL_UNARY(special_bessel_j1)
BRASA_SPECIAL_UNARY(special_bessel_y0)
BRASA_SPECIAL_UNARY(special_bessel_y1)
BRASA_SPECIAL_UNARY(special_modified_bessel_k0)
BRASA_SPECIAL_UNARY(special_modified_bessel_k1)
BRASA_SPECIAL_UNARY(special_scaled_modified_bessel_k0)
BRASA_SPECIAL_UNARY(special_scaled_modified_bessel_k1)
BRASA_SPECIAL_UNARY(special_airy_ai)
/// The orthogonal polynomials p_n(x) (Chebyshev of the four kinds and their shifted forms on
/// [0, 1], Hermite (physicists' H and probabilists' He), Laguerre, Legendre): n is truncated to an
/// integer, negative n gives 0. Not differentiable (as in PyTorch).
#define BRASA_SPECIAL_POLYNOMIAL(name)                                         \
  BRASA_API Tensor name(const Tensor& x, const Tensor& n);                     \
  BRASA_API Tensor name(const Tensor& x, const Scalar& n);                     \
  BRASA_API Tensor name(const Scalar& x, const Tensor& n);                     \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& x, const Tensor& n); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& x, const Scalar& n); \
  BRASA_API Tensor& name##_out(Tensor& out, const Scalar& x, const Tensor& n);
BRASA_SPECIAL_POLYNOMIAL(special_chebyshev_polynomial_t)
BRASA_SPECIAL_POLYNOMIAL(special_chebyshev_polynomial_u)
BRASA_SPECIAL_POLYNOMIAL(special_chebyshev_polynomial_v)
BRASA_SPECIAL_POLYNOMIAL(special_chebyshev_polynomial_w)
BRASA_SPECIAL_POLYNOMIAL(special_shifted_chebyshev_polynomial_t)
BRASA_SPECIAL_POLYNOMIAL(special_shifted_chebyshev_polynomial_u)
BRASA_SPECIAL_POLYNOMIAL(special_shifted_chebyshev_polynomial_v)
BRASA_SPECIAL_POLYNOMIAL(special_shifted_chebyshev_polynomial_w)
BRASA_SPECIAL_POLYNOMIAL(special_hermite_polynomial_h)
BRASA_SPECIAL_POLYNOMIAL(special_hermite_polynomial_he)
BRASA_SPECIAL_POLYNOMIAL(special_laguerre_polynomial_l)
BRASA_SPECIAL_POLYNOMIAL(special_legendre_polynomial_p)
#undef BRASA_SPECIAL_POLYNOMIAL

#undef BRASA_SPECIAL_UNARY
#undef BRASA_SPECIAL_BINARY
#undef BRASA_SPECIAL_BINARY_SCALARS

}  // namespace brasa
