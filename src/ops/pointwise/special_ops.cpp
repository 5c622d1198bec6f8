// Dispatched ops and free functions of the special-function family (special_ops.h; the loops in
// backends/cpu/kernels/special_kernels.cpp), and the special functions PyTorch defines as
// compositions (polygamma, mvlgamma, logit, ndtr, entr, ...) with the `special_` aliases.
#include "ops/pointwise/special_ops.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/composite_out.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/math.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/special.h"
#include "ops/meta.h"
#include "ops/pointwise/binary.h"

namespace brasa::ops {
namespace {

void check_real(const char* name, const Tensor& t) {
  BRASA_CHECK(t.defined(), name, ": got an undefined tensor");
  BRASA_CHECK_TYPE(!t.is_complex(), name, ": complex inputs are not supported, got ",
                   t.scalar_type());
}

cpu::TensorIterator make_iterator(const char* name, UnaryKind kind, const Tensor& self,
                                  const Tensor& out) {
  check_real(name, self);
  BRASA_CHECK_TYPE(kind != UnaryKind::Predicate || !out.defined() || out.scalar_type() == kBool,
                   name, ": does not support non-boolean outputs, got out of dtype ",
                   out.defined() ? out.scalar_type() : kBool);
  return make_unary_iterator(name, kind, self, out);
}

template <const char* name, UnaryKind kind>
Tensor special_meta(const Tensor& self, const Tensor& out) {
  return iterator_meta(make_iterator(name, kind, self, out));
}
template <const char* name, UnaryKind kind, cpu::DispatchStub<SpecialKernel>& stub>
Tensor special_kernel(const Tensor& self, const Tensor& out) {
  cpu::TensorIterator it = make_iterator(name, kind, self, out);
  stub(it);
  it.finish();
  return it.output();
}

// special_zeta promotes integral inputs to the default float; igamma/igammac need a floating
// common dtype (as in PyTorch).
cpu::TensorIterator make_binary(const char* name, BinaryKind kind, const Tensor& a, const Tensor& b,
                                const Tensor& out) {
  check_real(name, a);
  check_real(name, b);
  if (kind == BinaryKind::Bitwise) {  // gcd, lcm, shifts: integral dtypes, not bool
    const ScalarType dt = result_type(a, b);
    BRASA_CHECK_TYPE(is_integral_type(dt, false), name, ": expected integral inputs, got ",
                     a.scalar_type(), " and ", b.scalar_type());
  }
  return make_binary_iterator(name, kind, a, b, 1, out);
}
template <const char* name, BinaryKind kind>
Tensor special_binary_meta(const Tensor& a, const Tensor& b, const Tensor& out) {
  return iterator_meta(make_binary(name, kind, a, b, out));
}
template <const char* name, BinaryKind kind, cpu::DispatchStub<SpecialKernel>& stub>
Tensor special_binary_kernel(const Tensor& a, const Tensor& b, const Tensor& out) {
  cpu::TensorIterator it = make_binary(name, kind, a, b, out);
  stub(it);
  it.finish();
  return it.output();
}

// The Bessel functions have float and double loops only (PyTorch 1.13 has no Half/BFloat16 kernel).
cpu::TensorIterator make_bessel(const char* name, const Tensor& self, const Tensor& out) {
  cpu::TensorIterator it = make_iterator(name, UnaryKind::Float, self, out);
  const ScalarType dt = it.common_dtype();
  BRASA_CHECK_TYPE(dt == kFloat || dt == kDouble, name, ": not implemented for ", dt,
                   " (float32 and float64 only)");
  return it;
}
// One body for the nine ops (each registered kernel is a call to it: Note [Library size]).
[[gnu::noinline]] Tensor bessel_run(const char* name, cpu::DispatchStub<SpecialKernel>* stub,
                                    const Tensor& self, const Tensor& out) {
  cpu::TensorIterator it = make_bessel(name, self, out);
  if (stub == nullptr) return iterator_meta(std::move(it));
  (*stub)(it);
  it.finish();
  return it.output();
}
template <const char* name>
Tensor bessel_meta(const Tensor& self, const Tensor& out) {
  return bessel_run(name, nullptr, self, out);
}
template <const char* name, cpu::DispatchStub<SpecialKernel>& stub>
Tensor bessel_kernel(const Tensor& self, const Tensor& out) {
  return bessel_run(name, &stub, self, out);
}

}  // namespace

#define BRASA_DEFINE_SPECIAL(var, kind, stub)                                                \
  BRASA_DEFINE_STUB(stub, SpecialKernel);                                                    \
  BRASA_DEFINE_OP(var)                                                                       \
  BRASA_REGISTER_KERNEL(var, (special_kernel<var##_decl::name, UnaryKind::kind, stub>), CPU) \
  BRASA_REGISTER_KERNEL(var, (special_meta<var##_decl::name, UnaryKind::kind>), Meta)
BRASA_DEFINE_SPECIAL(acosh_op, Float, acosh_stub)
BRASA_DEFINE_SPECIAL(asinh_op, Float, asinh_stub)
BRASA_DEFINE_SPECIAL(atanh_op, Float, atanh_stub)
BRASA_DEFINE_SPECIAL(erfc_op, Float, erfc_stub)
BRASA_DEFINE_SPECIAL(lgamma_op, Float, lgamma_stub)
BRASA_DEFINE_SPECIAL(digamma_op, Float, digamma_stub)
BRASA_DEFINE_SPECIAL(i0_op, Float, i0_stub)
BRASA_DEFINE_SPECIAL(special_i0e_op, Float, i0e_stub)
BRASA_DEFINE_SPECIAL(special_i1_op, Float, i1_stub)
BRASA_DEFINE_SPECIAL(special_i1e_op, Float, i1e_stub)
BRASA_DEFINE_SPECIAL(special_ndtri_op, Float, ndtri_stub)
BRASA_DEFINE_SPECIAL(special_erfcx_op, Float, erfcx_stub)
BRASA_DEFINE_SPECIAL(signbit_op, Predicate, signbit_stub)
#undef BRASA_DEFINE_SPECIAL

#define BRASA_DEFINE_BESSEL(fn)                                                        \
  BRASA_DEFINE_STUB(fn##_stub, SpecialKernel);                                         \
  BRASA_DEFINE_OP(special_##fn##_op)                                                   \
  BRASA_REGISTER_KERNEL(special_##fn##_op,                                             \
                        (bessel_kernel<special_##fn##_op_decl::name, fn##_stub>), CPU) \
  BRASA_REGISTER_KERNEL(special_##fn##_op, (bessel_meta<special_##fn##_op_decl::name>), Meta)
BRASA_DEFINE_BESSEL(bessel_j0)
BRASA_DEFINE_BESSEL(bessel_j1)
BRASA_DEFINE_BESSEL(bessel_y0)
BRASA_DEFINE_BESSEL(bessel_y1)
BRASA_DEFINE_BESSEL(modified_bessel_k0)
BRASA_DEFINE_BESSEL(modified_bessel_k1)
BRASA_DEFINE_BESSEL(scaled_modified_bessel_k0)
BRASA_DEFINE_BESSEL(scaled_modified_bessel_k1)
BRASA_DEFINE_BESSEL(airy_ai)
#undef BRASA_DEFINE_BESSEL

#define BRASA_DEFINE_SPECIAL_BINARY(var, kind, stub)                                            \
  BRASA_DEFINE_STUB(stub, SpecialKernel);                                                       \
  BRASA_DEFINE_OP(var)                                                                          \
  BRASA_REGISTER_KERNEL(var, (special_binary_kernel<var##_decl::name, BinaryKind::kind, stub>), \
                        CPU)                                                                    \
  BRASA_REGISTER_KERNEL(var, (special_binary_meta<var##_decl::name, BinaryKind::kind>), Meta)
BRASA_DEFINE_SPECIAL_BINARY(special_zeta_op, Float, zeta_stub)
BRASA_DEFINE_SPECIAL_BINARY(igamma_op, FloatOnly, igamma_stub)
BRASA_DEFINE_SPECIAL_BINARY(igammac_op, FloatOnly, igammac_stub)
BRASA_DEFINE_SPECIAL_BINARY(nextafter_op, FloatOnly, nextafter_stub)
BRASA_DEFINE_SPECIAL_BINARY(gcd_op, Bitwise, gcd_stub)
BRASA_DEFINE_SPECIAL_BINARY(lcm_op, Bitwise, lcm_stub)
BRASA_DEFINE_SPECIAL_BINARY(bitwise_left_shift_op, Bitwise, left_shift_stub)
BRASA_DEFINE_SPECIAL_BINARY(bitwise_right_shift_op, Bitwise, right_shift_stub)
BRASA_DEFINE_SPECIAL_BINARY(chebyshev_t_op, Float, chebyshev_t_stub)
BRASA_DEFINE_SPECIAL_BINARY(chebyshev_u_op, Float, chebyshev_u_stub)
BRASA_DEFINE_SPECIAL_BINARY(chebyshev_v_op, Float, chebyshev_v_stub)
BRASA_DEFINE_SPECIAL_BINARY(chebyshev_w_op, Float, chebyshev_w_stub)
BRASA_DEFINE_SPECIAL_BINARY(shifted_chebyshev_t_op, Float, shifted_chebyshev_t_stub)
BRASA_DEFINE_SPECIAL_BINARY(shifted_chebyshev_u_op, Float, shifted_chebyshev_u_stub)
BRASA_DEFINE_SPECIAL_BINARY(shifted_chebyshev_v_op, Float, shifted_chebyshev_v_stub)
BRASA_DEFINE_SPECIAL_BINARY(shifted_chebyshev_w_op, Float, shifted_chebyshev_w_stub)
BRASA_DEFINE_SPECIAL_BINARY(hermite_h_op, Float, hermite_h_stub)
BRASA_DEFINE_SPECIAL_BINARY(hermite_he_op, Float, hermite_he_stub)
BRASA_DEFINE_SPECIAL_BINARY(laguerre_l_op, Float, laguerre_l_stub)
BRASA_DEFINE_SPECIAL_BINARY(legendre_p_op, Float, legendre_p_stub)

BRASA_DEFINE_STUB(frexp_stub, FrexpKernel);
BRASA_DEFINE_OP(frexp_op)
namespace {
std::tuple<Tensor, Tensor> frexp_meta(const Tensor& self) {
  BRASA_CHECK(self.defined(), "frexp: got an undefined tensor");
  BRASA_CHECK_TYPE(is_floating_type(self.dtype()),
                   "frexp: only supports floating-point dtypes, got ", self.dtype());
  return {detail::empty_generic(self.sizes(), self.dtype(), self.device()),
          detail::empty_generic(self.sizes(), kInt, self.device())};
}
std::tuple<Tensor, Tensor> frexp_kernel(const Tensor& self) {
  auto r = frexp_meta(self);
  if (self.numel() > 0) frexp_stub(std::get<0>(r), std::get<1>(r), self.contiguous());
  return r;
}
}  // namespace
BRASA_REGISTER_KERNEL(frexp_op, frexp_kernel, CPU)
BRASA_REGISTER_KERNEL(frexp_op, frexp_meta, Meta)
#undef BRASA_DEFINE_SPECIAL_BINARY

}  // namespace brasa::ops

namespace brasa {
namespace {

const Tensor kNoOut;
using ops::composite_out;

// A wrapped number: a 0-d CPU tensor (as the binary ops make them), whatever the other
// operand's device.
Tensor wrap(const Scalar& s, const Tensor& like) {
  (void)like;
  return detail::wrap_scalar(s);
}

void check_real_input(const char* name, const Tensor& t) {
  BRASA_CHECK(t.defined(), name, ": got an undefined tensor");
  BRASA_CHECK_TYPE(!t.is_complex(), name, ": complex inputs are not supported, got ",
                   t.scalar_type());
}

}  // namespace

#define BRASA_SPECIAL_API(name, op)                                        \
  Tensor name(const Tensor& self) { return ops::op().call(self, kNoOut); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                    \
    ops::op().call(self, out);                                             \
    return out;                                                            \
  }
BRASA_SPECIAL_API(acosh, acosh_op)
BRASA_SPECIAL_API(asinh, asinh_op)
BRASA_SPECIAL_API(atanh, atanh_op)
BRASA_SPECIAL_API(arccosh, acosh_op)
BRASA_SPECIAL_API(arcsinh, asinh_op)
BRASA_SPECIAL_API(arctanh, atanh_op)
BRASA_SPECIAL_API(erfc, erfc_op)
BRASA_SPECIAL_API(special_erfc, erfc_op)
BRASA_SPECIAL_API(lgamma, lgamma_op)
BRASA_SPECIAL_API(special_gammaln, lgamma_op)
BRASA_SPECIAL_API(digamma, digamma_op)
BRASA_SPECIAL_API(special_digamma, digamma_op)
BRASA_SPECIAL_API(special_psi, digamma_op)
BRASA_SPECIAL_API(i0, i0_op)
BRASA_SPECIAL_API(special_i0, i0_op)
BRASA_SPECIAL_API(special_i0e, special_i0e_op)
BRASA_SPECIAL_API(special_i1, special_i1_op)
BRASA_SPECIAL_API(special_i1e, special_i1e_op)
BRASA_SPECIAL_API(special_ndtri, special_ndtri_op)
BRASA_SPECIAL_API(special_erfcx, special_erfcx_op)
BRASA_SPECIAL_API(signbit, signbit_op)
BRASA_SPECIAL_API(special_bessel_j0, special_bessel_j0_op)
BRASA_SPECIAL_API(special_bessel_j1, special_bessel_j1_op)
BRASA_SPECIAL_API(special_bessel_y0, special_bessel_y0_op)
BRASA_SPECIAL_API(special_bessel_y1, special_bessel_y1_op)
BRASA_SPECIAL_API(special_modified_bessel_k0, special_modified_bessel_k0_op)
BRASA_SPECIAL_API(special_modified_bessel_k1, special_modified_bessel_k1_op)
BRASA_SPECIAL_API(special_scaled_modified_bessel_k0, special_scaled_modified_bessel_k0_op)
BRASA_SPECIAL_API(special_scaled_modified_bessel_k1, special_scaled_modified_bessel_k1_op)
BRASA_SPECIAL_API(special_airy_ai, special_airy_ai_op)
#undef BRASA_SPECIAL_API

#define BRASA_SPECIAL_BINARY_API(name, op)                                   \
  Tensor name(const Tensor& self, const Tensor& other) {                     \
    return ops::op().call(self, other, kNoOut);                              \
  }                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) { \
    ops::op().call(self, other, out);                                        \
    return out;                                                              \
  }
BRASA_SPECIAL_BINARY_API(igamma, igamma_op)
BRASA_SPECIAL_BINARY_API(igammac, igammac_op)
BRASA_SPECIAL_BINARY_API(special_gammainc, igamma_op)
BRASA_SPECIAL_BINARY_API(special_gammaincc, igammac_op)
BRASA_SPECIAL_BINARY_API(special_zeta, special_zeta_op)
BRASA_SPECIAL_BINARY_API(nextafter, nextafter_op)
BRASA_SPECIAL_BINARY_API(gcd, gcd_op)
BRASA_SPECIAL_BINARY_API(lcm, lcm_op)
BRASA_SPECIAL_BINARY_API(bitwise_left_shift, bitwise_left_shift_op)
BRASA_SPECIAL_BINARY_API(bitwise_right_shift, bitwise_right_shift_op)
#undef BRASA_SPECIAL_BINARY_API
// (x, n) polynomials with their Scalar overloads: a Scalar is a wrapped number.
#define BRASA_POLYNOMIAL_API(name, op)                                                   \
  Tensor name(const Tensor& x, const Tensor& n) { return ops::op().call(x, n, kNoOut); } \
  Tensor name(const Tensor& x, const Scalar& n) { return name(x, wrap(n, x)); }          \
  Tensor name(const Scalar& x, const Tensor& n) { return name(wrap(x, n), n); }          \
  Tensor& name##_out(Tensor& out, const Tensor& x, const Tensor& n) {                    \
    ops::op().call(x, n, out);                                                           \
    return out;                                                                          \
  }                                                                                      \
  Tensor& name##_out(Tensor& out, const Tensor& x, const Scalar& n) {                    \
    return name##_out(out, x, wrap(n, x));                                               \
  }                                                                                      \
  Tensor& name##_out(Tensor& out, const Scalar& x, const Tensor& n) {                    \
    return name##_out(out, wrap(x, n), n);                                               \
  }
BRASA_POLYNOMIAL_API(special_chebyshev_polynomial_t, chebyshev_t_op)
BRASA_POLYNOMIAL_API(special_chebyshev_polynomial_u, chebyshev_u_op)
BRASA_POLYNOMIAL_API(special_chebyshev_polynomial_v, chebyshev_v_op)
BRASA_POLYNOMIAL_API(special_chebyshev_polynomial_w, chebyshev_w_op)
BRASA_POLYNOMIAL_API(special_shifted_chebyshev_polynomial_t, shifted_chebyshev_t_op)
BRASA_POLYNOMIAL_API(special_shifted_chebyshev_polynomial_u, shifted_chebyshev_u_op)
BRASA_POLYNOMIAL_API(special_shifted_chebyshev_polynomial_v, shifted_chebyshev_v_op)
BRASA_POLYNOMIAL_API(special_shifted_chebyshev_polynomial_w, shifted_chebyshev_w_op)
BRASA_POLYNOMIAL_API(special_hermite_polynomial_h, hermite_h_op)
BRASA_POLYNOMIAL_API(special_hermite_polynomial_he, hermite_he_op)
BRASA_POLYNOMIAL_API(special_laguerre_polynomial_l, laguerre_l_op)
BRASA_POLYNOMIAL_API(special_legendre_polynomial_p, legendre_p_op)
#undef BRASA_POLYNOMIAL_API
Tensor bitwise_left_shift(const Tensor& self, const Scalar& other) {
  return bitwise_left_shift(self, wrap(other, self));
}
Tensor bitwise_left_shift(const Scalar& self, const Tensor& other) {
  return bitwise_left_shift(wrap(self, other), other);
}
Tensor bitwise_right_shift(const Tensor& self, const Scalar& other) {
  return bitwise_right_shift(self, wrap(other, self));
}
Tensor bitwise_right_shift(const Scalar& self, const Tensor& other) {
  return bitwise_right_shift(wrap(self, other), other);
}
std::tuple<Tensor, Tensor> frexp(const Tensor& self) { return ops::frexp_op().call(self); }
std::tuple<Tensor&, Tensor&> frexp_out(Tensor& mantissa, Tensor& exponent, const Tensor& self) {
  auto [m, e] = frexp(self);
  composite_out(mantissa, m, "frexp", ops::OutDtype::Exact);
  composite_out(exponent, e, "frexp", ops::OutDtype::Exact);
  return {mantissa, exponent};
}
// The modified Bessel functions I0 and I1 under their special_modified_bessel_ names, and the
// spherical Bessel function j0(x) = sin(x) / x.
Tensor special_modified_bessel_i0(const Tensor& self) { return i0(self); }
Tensor& special_modified_bessel_i0_out(Tensor& out, const Tensor& self) {
  return i0_out(out, self);
}
Tensor special_modified_bessel_i1(const Tensor& self) { return special_i1(self); }
Tensor& special_modified_bessel_i1_out(Tensor& out, const Tensor& self) {
  return special_i1_out(out, self);
}
Tensor special_spherical_bessel_j0(const Tensor& self) {
  check_real_input("special_spherical_bessel_j0", self);
  Tensor x = self.is_floating_point() ? self : self.to(get_default_dtype());
  Tensor zero = x.eq(0);
  Tensor safe = where(zero, ones_like(x), x);
  return where(zero, ones_like(x), safe.sin() / safe);
}
Tensor& special_spherical_bessel_j0_out(Tensor& out, const Tensor& self) {
  return composite_out(out, special_spherical_bessel_j0(self), "special_spherical_bessel_j0");
}
Tensor special_zeta(const Tensor& self, const Scalar& other) {
  return special_zeta(self, wrap(other, self));
}
Tensor special_zeta(const Scalar& self, const Tensor& other) {
  return special_zeta(wrap(self, other), other);
}
Tensor& special_zeta_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return special_zeta_out(out, self, wrap(other, self));
}
Tensor& special_zeta_out(Tensor& out, const Scalar& self, const Tensor& other) {
  return special_zeta_out(out, wrap(self, other), other);
}

// ---- compositions ----
namespace {
Tensor to_floating(const Tensor& t) {
  return is_floating_type(t.scalar_type()) ? t : t.to(get_default_dtype());
}
void check_real(const char* name, const Tensor& t) {
  BRASA_CHECK(t.defined(), name, ": got an undefined tensor");
  BRASA_CHECK_TYPE(!t.is_complex(), name, ": complex inputs are not supported, got ",
                   t.scalar_type());
}
}  // namespace

// polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1.
Tensor polygamma(int64_t n, const Tensor& self) {
  check_real("polygamma", self);
  BRASA_CHECK(n >= 0, "polygamma(n, x) does not support negative n, got n = ", n);
  if (n == 0) return digamma(self);
  const double factorial = std::tgamma(double(n) + 1);
  Tensor x = to_floating(self);
  return special_zeta(scalar_tensor(double(n + 1), x.options()), x) *
         (n % 2 == 1 ? factorial : -factorial);
}
Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self) {
  return composite_out(out, polygamma(n, self), "polygamma");
}
Tensor special_polygamma(int64_t n, const Tensor& self) { return polygamma(n, self); }
Tensor& special_polygamma_out(Tensor& out, int64_t n, const Tensor& self) {
  return polygamma_out(out, n, self);
}

// sum_{j < p} lgamma(x - j/2) + p (p - 1) / 4 * log(pi).
Tensor mvlgamma(const Tensor& self, int64_t p) {
  check_real("mvlgamma", self);
  BRASA_CHECK(p >= 1, "mvlgamma: p has to be greater than or equal to 1, got ", p);
  Tensor x = to_floating(self);
  Tensor offsets = arange(0, p, x.options()) * -0.5;
  return lgamma(x.unsqueeze(-1) + offsets).sum({-1}) +
         double(p) * double(p - 1) / 4 * std::log(std::numbers::pi);
}
Tensor& mvlgamma_out(Tensor& out, const Tensor& self, int64_t p) {
  return composite_out(out, mvlgamma(self, p), "mvlgamma");
}
Tensor special_multigammaln(const Tensor& self, int64_t p) { return mvlgamma(self, p); }
Tensor& special_multigammaln_out(Tensor& out, const Tensor& self, int64_t p) {
  return mvlgamma_out(out, self, p);
}

Tensor logit(const Tensor& self, std::optional<double> eps) {
  check_real("logit", self);
  Tensor x = to_floating(self);
  if (eps) {
    // PyTorch's clamp order: below eps gives eps, then above 1 - eps gives 1 - eps.
    const double lo = *eps, hi = 1.0 - *eps;
    x = where(x.lt(lo), full_like(x, lo), where(x.gt(hi), full_like(x, hi), x));
  }
  return (x / (-x + 1)).log();
}
Tensor& logit_out(Tensor& out, const Tensor& self, std::optional<double> eps) {
  return composite_out(out, logit(self, eps), "logit");
}
Tensor special_logit(const Tensor& self, std::optional<double> eps) { return logit(self, eps); }
Tensor& special_logit_out(Tensor& out, const Tensor& self, std::optional<double> eps) {
  return logit_out(out, self, eps);
}

Tensor special_ndtr(const Tensor& self) {
  check_real("special_ndtr", self);
  return erfc(to_floating(self) * -std::numbers::sqrt2 / 2) * 0.5;
}
Tensor& special_ndtr_out(Tensor& out, const Tensor& self) {
  return composite_out(out, special_ndtr(self), "special_ndtr");
}
// log(ndtr(x)): log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below -1 (where ndtr underflows), log1p of
// -erfc(x / sqrt 2) / 2 above; each branch sees its own clamped x, so the other's gradient is 0.
Tensor special_log_ndtr(const Tensor& self) {
  check_real("special_log_ndtr", self);
  Tensor x = to_floating(self);
  const double h = std::numbers::sqrt2 / 2;
  Tensor lo = x.clamp_max(-1.0), hi = x.clamp_min(-1.0);
  Tensor lower = (special_erfcx(lo * -h) * 0.5).log() - lo * lo * 0.5;
  Tensor upper = (erfc(hi * h) * -0.5).log1p();
  return where(x.lt(-1.0), lower, upper);
}
Tensor& special_log_ndtr_out(Tensor& out, const Tensor& self) {
  return composite_out(out, special_log_ndtr(self), "special_log_ndtr");
}
Tensor special_entr(const Tensor& self) {
  check_real("special_entr", self);
  Tensor x = to_floating(self);
  Tensor positive = x.gt(0);
  Tensor safe = where(positive, x, ones_like(x));
  Tensor r =
      where(positive, -safe * safe.log(),
            where(x.eq(0), zeros_like(x), full_like(x, -std::numeric_limits<double>::infinity())));
  return where(isnan(x), x, r);
}
Tensor& special_entr_out(Tensor& out, const Tensor& self) {
  return composite_out(out, special_entr(self), "special_entr");
}

Tensor special_xlog1py(const Tensor& self, const Tensor& other) {
  check_real("special_xlog1py", self);
  check_real("special_xlog1py", other);
  Tensor r = mul(self, to_floating(other).log1p());
  Tensor zero = logical_and(self.eq(0), logical_not(isnan(other)));
  return where(zero, zeros_like(r), r);
}
Tensor special_xlog1py(const Tensor& self, const Scalar& other) {
  return special_xlog1py(self, wrap(other, self));
}
Tensor special_xlog1py(const Scalar& self, const Tensor& other) {
  return special_xlog1py(wrap(self, other), other);
}
Tensor& special_xlog1py_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, special_xlog1py(self, other), "special_xlog1py");
}
Tensor& special_xlog1py_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return composite_out(out, special_xlog1py(self, other), "special_xlog1py");
}
Tensor& special_xlog1py_out(Tensor& out, const Scalar& self, const Tensor& other) {
  return composite_out(out, special_xlog1py(self, other), "special_xlog1py");
}
Tensor special_xlogy(const Tensor& self, const Tensor& other) { return xlogy(self, other); }
Tensor special_xlogy(const Tensor& self, const Scalar& other) { return xlogy(self, other); }
Tensor special_xlogy(const Scalar& self, const Tensor& other) { return xlogy(self, other); }
Tensor& special_xlogy_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return xlogy_out(out, self, other);
}
Tensor& special_xlogy_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return xlogy_out(out, self, other);
}
Tensor& special_xlogy_out(Tensor& out, const Scalar& self, const Tensor& other) {
  return composite_out(out, xlogy(self, other), "special_xlogy");
}

// ---- aliases of ops elsewhere ----
#define BRASA_SPECIAL_ALIAS(alias, target)                  \
  Tensor alias(const Tensor& self) { return target(self); } \
  Tensor& alias##_out(Tensor& out, const Tensor& self) { return target##_out(out, self); }
BRASA_SPECIAL_ALIAS(special_erf, erf)
BRASA_SPECIAL_ALIAS(special_erfinv, erfinv)
BRASA_SPECIAL_ALIAS(special_expm1, expm1)
BRASA_SPECIAL_ALIAS(special_exp2, exp2)
BRASA_SPECIAL_ALIAS(special_expit, sigmoid)
BRASA_SPECIAL_ALIAS(special_log1p, log1p)
BRASA_SPECIAL_ALIAS(special_sinc, sinc)
#undef BRASA_SPECIAL_ALIAS

// round half to even at `decimals` digits: x * 10^d rounded, divided back (for d < 0 the other way
// round, as PyTorch does).
Tensor special_round(const Tensor& self, int64_t decimals) {
  if (decimals == 0) return round(self);
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()),
                   "special_round: decimals need a floating input, got ", self.scalar_type());
  const double scale = std::pow(10.0, double(std::abs(decimals)));
  return decimals > 0 ? round(self * scale) / scale : round(self / scale) * scale;
}
Tensor& special_round_out(Tensor& out, const Tensor& self, int64_t decimals) {
  return composite_out(out, special_round(self, decimals), "special_round");
}
Tensor special_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax(self, dim, dtype);
}
Tensor special_log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return log_softmax(self, dim, dtype);
}
Tensor special_logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return logsumexp(self, dim, keepdim);
}

}  // namespace brasa
