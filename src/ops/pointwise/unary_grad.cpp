// Derivatives of the unary pointwise family (autograd kernels of the ops in unary_ops.h).
// Predicates and bitwise/logical not have bool/integral results and need none.

#include "ops/pointwise/unary_grad.h"

#include <cmath>
#include <numbers>

#include "autograd/function_node.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "ops/pointwise/binary_ops.h"
#include "ops/pointwise/unary_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

using namespace unary_derivative;  // NOLINT: Saves, Derivative, differentiate

// x / |x| for complex x, 0 where x is 0 (PyTorch's sgn).
Tensor complex_sgn(const Tensor& x) {
  Tensor r = x.abs();
  return x * where(r.eq(0), zeros_like(r), r.reciprocal());
}

constexpr double kLn2 = std::numbers::ln2;
constexpr double kLn10 = std::numbers::ln10;
constexpr double kTwoOverSqrtPi = 2.0 * std::numbers::inv_sqrtpi;
constexpr double kSqrtPiOverTwo = 0.5 / std::numbers::inv_sqrtpi;

BRASA_UNARY_DERIVATIVE(reciprocal_op, "ReciprocalBackward0", kResult, -g* y* y)
BRASA_UNARY_DERIVATIVE(exp_op, "ExpBackward0", kResult, g* y)
BRASA_UNARY_DERIVATIVE(exp2_op, "Exp2Backward0", kResult, g* y* kLn2)
BRASA_UNARY_DERIVATIVE(expm1_op, "Expm1Backward0", kResult, g*(y + 1))
BRASA_UNARY_DERIVATIVE(log_op, "LogBackward0", kInput, g / x)
BRASA_UNARY_DERIVATIVE(log2_op, "Log2Backward0", kInput, g / (x * kLn2))
BRASA_UNARY_DERIVATIVE(log10_op, "Log10Backward0", kInput, g / (x * kLn10))
BRASA_UNARY_DERIVATIVE(log1p_op, "Log1PBackward0", kInput, g / (x + 1))
BRASA_UNARY_DERIVATIVE(sqrt_op, "SqrtBackward0", kResult, g / (y * 2))
BRASA_UNARY_DERIVATIVE(rsqrt_op, "RsqrtBackward0", kResult, g* y.pow(3) * -0.5)
BRASA_UNARY_DERIVATIVE(sin_op, "SinBackward0", kInput, g* x.cos())
BRASA_UNARY_DERIVATIVE(cos_op, "CosBackward0", kInput, g * -x.sin())
BRASA_UNARY_DERIVATIVE(tan_op, "TanBackward0", kResult, g*(y* y + 1))
BRASA_UNARY_DERIVATIVE(asin_op, "AsinBackward0", kInput, g*(-(x* x) + 1).rsqrt())
BRASA_UNARY_DERIVATIVE(acos_op, "AcosBackward0", kInput, -g*(-(x* x) + 1).rsqrt())
BRASA_UNARY_DERIVATIVE(atan_op, "AtanBackward0", kInput, g / (x * x + 1))
BRASA_UNARY_DERIVATIVE(sinh_op, "SinhBackward0", kInput, g* x.cosh())
BRASA_UNARY_DERIVATIVE(cosh_op, "CoshBackward0", kInput, g* x.sinh())
BRASA_UNARY_DERIVATIVE(tanh_op, "TanhBackward0", kResult, g*(-(y* y) + 1))
BRASA_UNARY_DERIVATIVE(sigmoid_op, "SigmoidBackward0", kResult, g* y*(-y + 1))
BRASA_UNARY_DERIVATIVE(erf_op, "ErfBackward0", kInput, g*(-(x* x)).exp() * kTwoOverSqrtPi)
BRASA_UNARY_DERIVATIVE(erfinv_op, "ErfinvBackward0", kResult, g*(y* y).exp() * kSqrtPiOverTwo)
BRASA_UNARY_DERIVATIVE(neg_op, "NegBackward0", kNone, -g)
// For complex x, d|x| pulls back to g * x / |x| (0 at 0): Note [Complex gradients].
BRASA_UNARY_DERIVATIVE(abs_op, "AbsBackward0", kInput,
                       x.is_complex() ? g* complex_sgn(x) : g* x.sign())
BRASA_UNARY_DERIVATIVE(conj_physical_op, "ConjPhysicalBackward0", kNone, g.conj())
BRASA_UNARY_DERIVATIVE(sign_op, "SignBackward0", kNone, zeros_like(g))
BRASA_UNARY_DERIVATIVE(square_op, "PowBackward0", kInput, g* x * 2)
BRASA_UNARY_DERIVATIVE(floor_op, "FloorBackward0", kNone, zeros_like(g))
BRASA_UNARY_DERIVATIVE(ceil_op, "CeilBackward0", kNone, zeros_like(g))
BRASA_UNARY_DERIVATIVE(round_op, "RoundBackward0", kNone, zeros_like(g))
BRASA_UNARY_DERIVATIVE(trunc_op, "TruncBackward0", kNone, zeros_like(g))
BRASA_UNARY_DERIVATIVE(frac_op, "FracBackward0", kNone, g)
BRASA_UNARY_DERIVATIVE(relu_op, "ReluBackward0", kResult,
                       threshold_backward_op().call(g, y, 1, Tensor()))

}  // namespace
}  // namespace brasa::ops
