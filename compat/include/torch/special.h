#pragma once
// <torch/special.h>: torch::special::NAME is brasa's special_NAME (brasa/ops/special.h), with
// libtorch's argument lists and `_out` forms (out first). Not provided: the Bessel functions of the
// first and second kind (bessel_j0/j1/y0/y1), the modified Bessel functions K0/K1 (and scaled)
// and airy_ai.

#include "brasa/ops/math.h"
#include "brasa/ops/special.h"
#include "c10/brasa_namespaces.h"
#include "c10/util/Optional.h"

namespace torch::special {

#define BRASA_TORCH_SPECIAL_UNARY(name, target)                            \
  inline Tensor name(const Tensor& self) { return ::brasa::target(self); } \
  inline Tensor& name##_out(Tensor& result, const Tensor& self) {          \
    return ::brasa::target##_out(result, self);                            \
  }
BRASA_TORCH_SPECIAL_UNARY(gammaln, special_gammaln)
BRASA_TORCH_SPECIAL_UNARY(digamma, special_digamma)
BRASA_TORCH_SPECIAL_UNARY(psi, special_psi)
BRASA_TORCH_SPECIAL_UNARY(entr, special_entr)
BRASA_TORCH_SPECIAL_UNARY(erf, special_erf)
BRASA_TORCH_SPECIAL_UNARY(erfc, special_erfc)
BRASA_TORCH_SPECIAL_UNARY(erfcx, special_erfcx)
BRASA_TORCH_SPECIAL_UNARY(erfinv, special_erfinv)
BRASA_TORCH_SPECIAL_UNARY(ndtr, special_ndtr)
BRASA_TORCH_SPECIAL_UNARY(ndtri, special_ndtri)
BRASA_TORCH_SPECIAL_UNARY(log_ndtr, special_log_ndtr)
BRASA_TORCH_SPECIAL_UNARY(expit, special_expit)
BRASA_TORCH_SPECIAL_UNARY(exp2, special_exp2)
BRASA_TORCH_SPECIAL_UNARY(expm1, special_expm1)
BRASA_TORCH_SPECIAL_UNARY(log1p, special_log1p)
BRASA_TORCH_SPECIAL_UNARY(sinc, special_sinc)
BRASA_TORCH_SPECIAL_UNARY(i0, special_i0)
BRASA_TORCH_SPECIAL_UNARY(i0e, special_i0e)
BRASA_TORCH_SPECIAL_UNARY(i1, special_i1)
BRASA_TORCH_SPECIAL_UNARY(i1e, special_i1e)
BRASA_TORCH_SPECIAL_UNARY(modified_bessel_i0, special_modified_bessel_i0)
BRASA_TORCH_SPECIAL_UNARY(modified_bessel_i1, special_modified_bessel_i1)
BRASA_TORCH_SPECIAL_UNARY(spherical_bessel_j0, special_spherical_bessel_j0)
BRASA_TORCH_SPECIAL_UNARY(bessel_j0, special_bessel_j0)
BRASA_TORCH_SPECIAL_UNARY(bessel_j1, special_bessel_j1)
BRASA_TORCH_SPECIAL_UNARY(bessel_y0, special_bessel_y0)
BRASA_TORCH_SPECIAL_UNARY(bessel_y1, special_bessel_y1)
BRASA_TORCH_SPECIAL_UNARY(modified_bessel_k0, special_modified_bessel_k0)
BRASA_TORCH_SPECIAL_UNARY(modified_bessel_k1, special_modified_bessel_k1)
BRASA_TORCH_SPECIAL_UNARY(scaled_modified_bessel_k0, special_scaled_modified_bessel_k0)
BRASA_TORCH_SPECIAL_UNARY(scaled_modified_bessel_k1, special_scaled_modified_bessel_k1)
BRASA_TORCH_SPECIAL_UNARY(airy_ai, special_airy_ai)
#undef BRASA_TORCH_SPECIAL_UNARY

#define BRASA_TORCH_SPECIAL_BINARY(name, target)                                       \
  inline Tensor name(const Tensor& self, const Tensor& other) {                        \
    return ::brasa::target(self, other);                                               \
  }                                                                                    \
  inline Tensor& name##_out(Tensor& result, const Tensor& self, const Tensor& other) { \
    return ::brasa::target##_out(result, self, other);                                 \
  }
#define BRASA_TORCH_SPECIAL_BINARY_SCALARS(name, target)                               \
  BRASA_TORCH_SPECIAL_BINARY(name, target)                                             \
  inline Tensor name(const Scalar& self, const Tensor& other) {                        \
    return ::brasa::target(self, other);                                               \
  }                                                                                    \
  inline Tensor name(const Tensor& self, const Scalar& other) {                        \
    return ::brasa::target(self, other);                                               \
  }                                                                                    \
  inline Tensor& name##_out(Tensor& result, const Scalar& self, const Tensor& other) { \
    return ::brasa::target##_out(result, self, other);                                 \
  }                                                                                    \
  inline Tensor& name##_out(Tensor& result, const Tensor& self, const Scalar& other) { \
    return ::brasa::target##_out(result, self, other);                                 \
  }
BRASA_TORCH_SPECIAL_BINARY(gammainc, special_gammainc)
BRASA_TORCH_SPECIAL_BINARY(gammaincc, special_gammaincc)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(xlogy, special_xlogy)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(xlog1py, special_xlog1py)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(zeta, special_zeta)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(chebyshev_polynomial_t, special_chebyshev_polynomial_t)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(chebyshev_polynomial_u, special_chebyshev_polynomial_u)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(chebyshev_polynomial_v, special_chebyshev_polynomial_v)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(chebyshev_polynomial_w, special_chebyshev_polynomial_w)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(shifted_chebyshev_polynomial_t,
                                   special_shifted_chebyshev_polynomial_t)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(shifted_chebyshev_polynomial_u,
                                   special_shifted_chebyshev_polynomial_u)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(shifted_chebyshev_polynomial_v,
                                   special_shifted_chebyshev_polynomial_v)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(shifted_chebyshev_polynomial_w,
                                   special_shifted_chebyshev_polynomial_w)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(hermite_polynomial_h, special_hermite_polynomial_h)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(hermite_polynomial_he, special_hermite_polynomial_he)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(laguerre_polynomial_l, special_laguerre_polynomial_l)
BRASA_TORCH_SPECIAL_BINARY_SCALARS(legendre_polynomial_p, special_legendre_polynomial_p)
#undef BRASA_TORCH_SPECIAL_BINARY
#undef BRASA_TORCH_SPECIAL_BINARY_SCALARS

inline Tensor polygamma(int64_t n, const Tensor& self) {
  return ::brasa::special_polygamma(n, self);
}
inline Tensor& polygamma_out(Tensor& result, int64_t n, const Tensor& self) {
  return ::brasa::special_polygamma_out(result, n, self);
}
inline Tensor multigammaln(const Tensor& self, int64_t p) {
  return ::brasa::special_multigammaln(self, p);
}
inline Tensor& multigammaln_out(Tensor& result, const Tensor& self, int64_t p) {
  return ::brasa::special_multigammaln_out(result, self, p);
}
inline Tensor logit(const Tensor& self, c10::optional<double> eps = c10::nullopt) {
  return ::brasa::special_logit(self, eps);
}
inline Tensor& logit_out(Tensor& result, const Tensor& self,
                         c10::optional<double> eps = c10::nullopt) {
  return ::brasa::special_logit_out(result, self, eps);
}
inline Tensor round(const Tensor& self, int64_t decimals = 0) {
  return ::brasa::special_round(self, decimals);
}
inline Tensor& round_out(Tensor& result, const Tensor& self, int64_t decimals = 0) {
  return ::brasa::special_round_out(result, self, decimals);
}
inline Tensor softmax(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype) {
  return ::brasa::special_softmax(self, dim, dtype);
}
inline Tensor log_softmax(const Tensor& self, int64_t dim, c10::optional<ScalarType> dtype) {
  return ::brasa::special_log_softmax(self, dim, dtype);
}
inline Tensor logsumexp(const Tensor& self, IntArrayRef dims, bool keepdim = false) {
  return ::brasa::special_logsumexp(self, dims, keepdim);
}

}  // namespace torch::special
