// Derivatives of the special-function family (autograd kernels of the ops in special_ops.h),
// written with ops so that higher orders work. As in PyTorch, special_zeta differentiates only in
// `other` (q) and igamma / igammac only in `other` (x); asking for the other gradient throws
// NotImplementedError.

#include <cmath>
#include <numbers>

#include "autograd/function_node.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/math.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/special.h"
#include "ops/pointwise/special_ops.h"
#include "ops/pointwise/unary_grad.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

using namespace unary_derivative;  // NOLINT: kInput, kResult

constexpr double kTwoOverSqrtPi = 2.0 * std::numbers::inv_sqrtpi;
const double kSqrtTwoPi = std::sqrt(2.0 * std::numbers::pi);

// x / |x| at x != 0 with a safe denominator, `at_zero` at 0 (the limits of the Bessel formulas).
Tensor where_zero(const Tensor& x, double at_zero, const Tensor& value) {
  return where(x.eq(0), full_like(value, at_zero), value);
}
Tensor safe(const Tensor& x) { return where(x.eq(0), ones_like(x), x); }

BRASA_UNARY_DERIVATIVE(acosh_op, "AcoshBackward0", kInput, g*(x* x - 1).rsqrt())
BRASA_UNARY_DERIVATIVE(asinh_op, "AsinhBackward0", kInput, g*(x* x + 1).rsqrt())
BRASA_UNARY_DERIVATIVE(atanh_op, "AtanhBackward0", kInput, g / (-(x * x) + 1))
BRASA_UNARY_DERIVATIVE(erfc_op, "ErfcBackward0", kInput, g*(-(x* x)).exp() * -kTwoOverSqrtPi)
BRASA_UNARY_DERIVATIVE(lgamma_op, "LgammaBackward0", kInput, g* digamma(x))
BRASA_UNARY_DERIVATIVE(digamma_op, "DigammaBackward0", kInput, g* polygamma(1, x))
BRASA_UNARY_DERIVATIVE(i0_op, "I0Backward0", kInput, g* special_i1(x))
BRASA_UNARY_DERIVATIVE(special_i0e_op, "SpecialI0EBackward0", kInput | kResult,
                       g*(special_i1e(x) - sgn(x) * y))
BRASA_UNARY_DERIVATIVE(special_i1_op, "SpecialI1Backward0", kInput | kResult,
                       g* where_zero(x, 0.5, i0(x) - y / safe(x)))
BRASA_UNARY_DERIVATIVE(special_i1e_op, "SpecialI1EBackward0", kInput | kResult,
                       g* where_zero(x, 0.5, special_i0e(x) - y * (sgn(x) + safe(x).reciprocal())))
BRASA_UNARY_DERIVATIVE(special_ndtri_op, "SpecialNdtriBackward0", kResult,
                       g*(y* y * 0.5).exp() * kSqrtTwoPi)
BRASA_UNARY_DERIVATIVE(special_erfcx_op, "SpecialErfcxBackward0", kInput | kResult,
                       g*(x* y * 2 - kTwoOverSqrtPi))

// ---- binary: only `other` differentiates ----
using BinaryFormula = Tensor (*)(const Tensor& g, const Tensor& a, const Tensor& b);
using SpecialBinaryOp = Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>;

struct BinaryClosure {
  SavedVariable a, b;
  BinaryFormula formula;
  const char* op;
  variable_list operator()(BackwardContext& ctx) const {
    BRASA_CHECK_TYPED(NotImplementedError, !ctx.needs(0), op,
                      ": the derivative for 'self' is not implemented");
    return {Tensor(), ctx.needs(1) ? formula(ctx.grad(0), ctx.unpack(a), ctx.unpack(b)) : Tensor()};
  }
};

Tensor differentiate_other(SpecialBinaryOp& op, const char* node_name, BinaryFormula formula,
                           const Tensor& a, const Tensor& b, const Tensor& out) {
  if (!autograd::any_requires_grad({&a, &b})) {
    BelowAutograd below;
    return op.call(a, b, out);
  }
  const char* name = op.name().c_str();
  if (out.defined() && !out.is_same(a)) autograd::throw_out_with_grad(name);
  BinaryClosure c{SavedVariable(autograd::saved_input(a, out)),
                  SavedVariable(autograd::saved_input(b, out)), formula, name};
  return autograd::record(node_name, name, {&a, &b}, a, out, std::move(c),
                          [&] { return op.call(a, b, out); })
      .first;
}

// d/dq zeta(s, q) = -s zeta(s + 1, q).
Tensor zeta_formula(const Tensor& g, const Tensor& s, const Tensor& q) {
  return g * -s * special_zeta(s + 1, q);
}
// d/dx P(a, x) = x^(a-1) e^-x / Gamma(a); Q = 1 - P.
Tensor igamma_formula(const Tensor& g, const Tensor& a, const Tensor& x) {
  return g * ((a - 1) * x.log() - x - lgamma(a)).exp();
}
Tensor igammac_formula(const Tensor& g, const Tensor& a, const Tensor& x) {
  return -igamma_formula(g, a, x);
}
Tensor zeta_autograd(const Tensor& a, const Tensor& b, const Tensor& out) {
  return differentiate_other(special_zeta_op(), "SpecialZetaBackward0", zeta_formula, a, b, out);
}
Tensor igamma_autograd(const Tensor& a, const Tensor& b, const Tensor& out) {
  return differentiate_other(igamma_op(), "IgammaBackward0", igamma_formula, a, b, out);
}
Tensor igammac_autograd(const Tensor& a, const Tensor& b, const Tensor& out) {
  return differentiate_other(igammac_op(), "IgammacBackward0", igammac_formula, a, b, out);
}
BRASA_REGISTER_KERNEL(special_zeta_op, zeta_autograd, Autograd)
BRASA_REGISTER_KERNEL(igamma_op, igamma_autograd, Autograd)
BRASA_REGISTER_KERNEL(igammac_op, igammac_autograd, Autograd)

// frexp: mantissa = x / 2^exponent, so its gradient is g / 2^exponent (the exponent, an integer,
// has none).
std::tuple<Tensor, Tensor> frexp_autograd(const Tensor& self) {
  std::tuple<Tensor, Tensor> r;
  {
    BelowAutograd below;
    r = frexp_op().call(self);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  auto fn = autograd::make_function_node(
      "FrexpBackward0", "frexp", {&self},
      [exponent = SavedVariable(std::get<1>(r))](BackwardContext& ctx) -> variable_list {
        const Tensor& g = ctx.grad(0);
        return {g / ctx.unpack(exponent).to(g.scalar_type()).exp2()};
      });
  autograd::set_history(std::get<0>(r), fn);
  return r;
}
BRASA_REGISTER_KERNEL(frexp_op, frexp_autograd, Autograd)

}  // namespace

BRASA_NON_DIFFERENTIABLE(signbit_op)
BRASA_NON_DIFFERENTIABLE(nextafter_op)
BRASA_NON_DIFFERENTIABLE(gcd_op)
BRASA_NON_DIFFERENTIABLE(lcm_op)
BRASA_NON_DIFFERENTIABLE(bitwise_left_shift_op)
BRASA_NON_DIFFERENTIABLE(bitwise_right_shift_op)
BRASA_NON_DIFFERENTIABLE(chebyshev_t_op)
BRASA_NON_DIFFERENTIABLE(chebyshev_u_op)
BRASA_NON_DIFFERENTIABLE(chebyshev_v_op)
BRASA_NON_DIFFERENTIABLE(chebyshev_w_op)
BRASA_NON_DIFFERENTIABLE(shifted_chebyshev_t_op)
BRASA_NON_DIFFERENTIABLE(shifted_chebyshev_u_op)
BRASA_NON_DIFFERENTIABLE(shifted_chebyshev_v_op)
BRASA_NON_DIFFERENTIABLE(shifted_chebyshev_w_op)
BRASA_NON_DIFFERENTIABLE(hermite_h_op)
BRASA_NON_DIFFERENTIABLE(hermite_he_op)
BRASA_NON_DIFFERENTIABLE(laguerre_l_op)
BRASA_NON_DIFFERENTIABLE(legendre_p_op)
BRASA_NON_DIFFERENTIABLE(special_bessel_j0_op)
BRASA_NON_DIFFERENTIABLE(special_bessel_j1_op)
BRASA_NON_DIFFERENTIABLE(special_bessel_y0_op)
BRASA_NON_DIFFERENTIABLE(special_bessel_y1_op)
BRASA_NON_DIFFERENTIABLE(special_modified_bessel_k0_op)
BRASA_NON_DIFFERENTIABLE(special_modified_bessel_k1_op)
BRASA_NON_DIFFERENTIABLE(special_scaled_modified_bessel_k0_op)
BRASA_NON_DIFFERENTIABLE(special_scaled_modified_bessel_k1_op)
BRASA_NON_DIFFERENTIABLE(special_airy_ai_op)

}  // namespace brasa::ops
