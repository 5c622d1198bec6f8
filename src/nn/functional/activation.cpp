// Activation functionals, composed from pointwise ops; gumbel_softmax draws as libtorch's does.

#include "brasa/nn/functional/activation.h"

#include <cmath>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/nn/activation_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/elu_family.h"
#include "nn/functional/fused_derivative.h"
#include "nn/functional/opmath.h"
#include "ops/pointwise/gelu_ops.h"

namespace brasa::nn::functional {
namespace {

using detail::in_opmath;

void check_floating(const Tensor& input, const char* op) {
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()), op, ": expected a floating input, got ",
                   input.scalar_type());
}

Tensor finish(const Tensor& input, const Tensor& result, bool inplace) {
  if (!inplace) return result;
  input.copy_(result);
  return input;
}

}  // namespace

Tensor relu(const Tensor& input, const ReLUFuncOptions& options) {
  return options.inplace() ? input.relu_() : input.relu();
}

Tensor relu6(const Tensor& input, const ReLU6FuncOptions& options) {
  return hardtanh(input, HardtanhFuncOptions().min_val(0).max_val(6).inplace(options.inplace()));
}

Tensor leaky_relu(const Tensor& input, const LeakyReLUFuncOptions& options) {
  check_floating(input, "leaky_relu");
  return finish(
      input,
      in_opmath(input,
                [&](const Tensor& x) { return where(x.gt(0), x, x * options.negative_slope()); }),
      options.inplace());
}

// The ELU family: x > 0 ? scale * x : neg * (exp(x * in_scale) - 1), with PyTorch's gradient
// (x <= 0 ? g * neg * in_scale * exp(x * in_scale) : g * scale; NaN takes the second branch).
// exp() - 1 rather than expm1(): PyTorch 1.13's kernel computes it so, and near 0 the two differ
// by far more than allclose's tolerance (celu(-1e-6, 4.2) is -1.00136e-06, not -9.99999e-07).
Tensor detail::elu_family(const Tensor& input, const char* op, double scale, double neg,
                          double in_scale, bool inplace) {
  Tensor r = detail::with_derivative(
      "EluBackward0", op, input,
      [&](const Tensor& in) {
        return in_opmath(in, [&](const Tensor& x) {
          return where(x.gt(0), x * scale, ((x * in_scale).exp() - 1) * neg);
        });
      },
      [scale, neg, in_scale](const Tensor& g, const Tensor& x, const Tensor&) {
        return where(x.le(0), g * (x * in_scale).exp() * (neg * in_scale), g * scale);
      });
  return finish(input, r, inplace);
}

Tensor elu(const Tensor& input, const ELUFuncOptions& options) {
  check_floating(input, "elu");
  return detail::elu_family(input, "elu", 1.0, options.alpha(), 1.0, options.inplace());
}

Tensor selu(const Tensor& input, const SELUFuncOptions& options) {
  check_floating(input, "selu");
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  return detail::elu_family(input, "selu", kScale, kAlpha * kScale, 1.0, options.inplace());
}

Tensor celu(const Tensor& input, const CELUFuncOptions& options) {
  check_floating(input, "celu");
  const double alpha = options.alpha();
  BRASA_CHECK(alpha != 0, "celu: alpha must not be 0");
  return detail::elu_family(input, "celu", 1.0, alpha, 1.0 / alpha, options.inplace());
}

Tensor gelu(const Tensor& input, const GELUFuncOptions& options) {
  check_floating(input, "gelu");
  const std::string& mode = options.approximate();
  BRASA_CHECK(mode == "none" || mode == "tanh", "gelu: approximate must be 'none' or 'tanh', got '",
              mode, "'");
  return ops::gelu_op().call(input, mode, Tensor());  // fused: ops/pointwise/gelu_ops.h
}

Tensor silu(const Tensor& input) {
  check_floating(input, "silu");
  return in_opmath(input, [](const Tensor& x) { return x * x.sigmoid(); });
}

namespace {
Tensor softplus_impl(const Tensor& x, double beta, double threshold) {
  Tensor scaled = x * beta;
  return where(scaled.gt(threshold), x, scaled.exp().log1p() / beta);
}
}  // namespace

Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options) {
  check_floating(input, "softplus");
  const double beta = options.beta(), threshold = options.threshold();
  return detail::with_derivative(
      "SoftplusBackward0", "softplus", input,
      [&](const Tensor& in) {
        return in_opmath(in, [&](const Tensor& x) { return softplus_impl(x, beta, threshold); });
      },
      [beta, threshold](const Tensor& g, const Tensor& x, const Tensor&) {
        Tensor z = (x * beta).exp();
        return where((x * beta).gt(threshold), g, g * z / (z + 1));
      });
}

Tensor mish(const Tensor& input) {
  check_floating(input, "mish");
  return in_opmath(input, [](const Tensor& x) { return x * softplus_impl(x, 1.0, 20.0).tanh(); });
}

Tensor softsign(const Tensor& input) {
  return in_opmath(input, [](const Tensor& x) { return x / (x.abs() + 1); });
}

Tensor hardtanh(const Tensor& input, const HardtanhFuncOptions& options) {
  BRASA_CHECK_TYPE(input.scalar_type() != kBool, "hardtanh: not implemented for Bool");
  BRASA_CHECK(input.scalar_type() != kByte || (options.min_val() >= 0 && options.max_val() >= 0),
              "hardtanh: cannot do hardtanh on an unsigned type with negative limits");
  Scalar lo = options.min_val(), hi = options.max_val();
  if (!is_floating_type(input.scalar_type())) {  // keeps the integral dtype, like PyTorch
    lo = static_cast<int64_t>(options.min_val());
    hi = static_cast<int64_t>(options.max_val());
  }
  if (!is_floating_type(input.scalar_type()))
    return options.inplace() ? input.clamp_(lo, hi) : input.clamp(lo, hi);
  // PyTorch's gradient: zero at and beyond the limits, passed through for NaN.
  const double min_val = options.min_val(), max_val = options.max_val();
  Tensor r = detail::with_derivative(
      "HardtanhBackward0", "hardtanh", input, [&](const Tensor& x) { return x.clamp(lo, hi); },
      [min_val, max_val](const Tensor& g, const Tensor& x, const Tensor&) {
        return g.masked_fill(x.le(min_val).logical_or(x.ge(max_val)), 0);
      });
  return finish(input, r, options.inplace());
}

Tensor hardsigmoid(const Tensor& input, bool inplace) {
  check_floating(input, "hardsigmoid");
  Tensor r = detail::with_derivative(
      "HardsigmoidBackward0", "hardsigmoid", input,
      [](const Tensor& in) {
        return in_opmath(in, [](const Tensor& x) { return (x + 3).clamp(0, 6) / 6; });
      },
      [](const Tensor& g, const Tensor& x, const Tensor&) {
        return where(x.gt(-3).logical_and(x.lt(3)), g / 6, zeros_like(g));
      });
  return finish(input, r, inplace);
}

Tensor hardswish(const Tensor& input, bool inplace) {
  check_floating(input, "hardswish");
  Tensor r = detail::with_derivative(
      "HardswishBackward0", "hardswish", input,
      [](const Tensor& in) {
        return in_opmath(in, [](const Tensor& x) { return x * (x + 3).clamp(0, 6) / 6; });
      },
      [](const Tensor& g, const Tensor& x, const Tensor&) {
        return where(x.lt(-3), zeros_like(g), where(x.le(3), g * (x / 3 + 0.5), g));
      });
  return finish(input, r, inplace);
}

Tensor logsigmoid(const Tensor& input) {
  check_floating(input, "logsigmoid");
  return detail::with_derivative(
      "LogSigmoidBackward0", "logsigmoid", input,
      [](const Tensor& in) {
        return in_opmath(
            in, [](const Tensor& x) { return x.clamp_max(0) - x.abs().neg().exp().log1p(); });
      },
      [](const Tensor& g, const Tensor& x, const Tensor&) {
        Tensor z = x.abs().neg().exp();
        Tensor neg = x.lt(0);
        Tensor max_deriv = neg.to(g.dtype());
        Tensor sign = where(neg, ones_like(g), -ones_like(g));
        return g * (max_deriv - sign * (z / (z + 1)));
      });
}

Tensor glu(const Tensor& input, const GLUFuncOptions& options) {
  check_floating(input, "glu");
  BRASA_CHECK(input.dim() > 0, "glu: does not support 0-d tensors");
  const int64_t dim = brasa::detail::wrap_dim(options.dim(), input.dim(), "glu");
  const int64_t n = input.size(dim);
  BRASA_CHECK(n % 2 == 0, "glu: halving dimension must be even, but dimension ", dim, " is size ",
              n);
  return in_opmath(input, [&](const Tensor& x) {
    return x.narrow(dim, 0, n / 2) * x.narrow(dim, n / 2, n / 2).sigmoid();
  });
}

Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  if (input.numel() == 0 && !options.dtype()) return input.clone();  // any dtype, like PyTorch
  return brasa::softmax(input, options.dim(), options.dtype());
}

Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options) {
  if (input.numel() == 0 && !options.dtype()) return input.clone();  // any dtype, like PyTorch
  return brasa::log_softmax(input, options.dim(), options.dtype());
}

Tensor softmin(const Tensor& input, const SoftminFuncOptions& options) {
  BRASA_CHECK(input.defined(), "softmin: got an undefined tensor");
  return softmax(input.neg(), SoftmaxFuncOptions(options.dim()).dtype(options.dtype()));
}

// The shrinks, threshold, prelu and rrelu are the at:: functions (nn/activation_functions.h)
// with the options unpacked: one computation for both spellings.
Tensor hardshrink(const Tensor& input, const HardshrinkFuncOptions& options) {
  return brasa::hardshrink(input, options.lambda());
}

Tensor softshrink(const Tensor& input, const SoftshrinkFuncOptions& options) {
  return brasa::softshrink(input, options.lambda());
}

Tensor tanhshrink(const Tensor& input) {
  BRASA_CHECK(input.defined(), "tanhshrink: got an undefined tensor");
  return input - input.tanh();
}

Tensor threshold(const Tensor& input, const ThresholdFuncOptions& options) {
  if (!options.inplace()) return brasa::threshold(input, options.threshold(), options.value());
  Tensor self = input;
  return brasa::threshold_(self, options.threshold(), options.value());
}

Tensor prelu(const Tensor& input, const Tensor& weight) { return brasa::prelu(input, weight); }

Tensor rrelu(const Tensor& input, const RReLUFuncOptions& options) {
  if (!options.inplace())
    return brasa::rrelu(input, options.lower(), options.upper(), options.training());
  Tensor self = input;
  return brasa::rrelu_(self, options.lower(), options.upper(), options.training());
}

Tensor gumbel_softmax(const Tensor& logits, const GumbelSoftmaxFuncOptions& options) {
  BRASA_CHECK(logits.defined(), "gumbel_softmax: logits must be defined");
  check_floating(logits, "gumbel_softmax");
  // The draws of libtorch's detail::gumbel_softmax, in its order: Exponential(1) over the whole
  // tensor, then -log of it.
  Tensor gumbels = empty_like(logits).exponential_().log().neg();
  Tensor y_soft = logits.add(gumbels).div(options.tau()).softmax(options.dim());
  if (!options.hard()) return y_soft;
  Tensor index = std::get<1>(y_soft.max(options.dim(), /*keepdim=*/true));
  Tensor y_hard = zeros_like(logits).scatter_(options.dim(), index, 1.0);
  return y_hard - y_soft.detach() + y_soft;
}

}  // namespace brasa::nn::functional
