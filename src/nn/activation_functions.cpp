// at:: activation functions: libtorch's positional arguments turned into nn::functional's options
// (one computation for both spellings), and the activations torch::nn::functional lacks.

#include "brasa/nn/activation_functions.h"

#include <cmath>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/nn/functional/activation.h"
#include "brasa/nn/gelu_backward.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/special.h"
#include "nn/functional/elu_family.h"
#include "nn/functional/opmath.h"
#include "ops/pointwise/gelu_ops.h"

namespace brasa {
namespace {

namespace F = nn::functional;
using nn::functional::detail::in_opmath;

void check_floating(const Tensor& self, const char* op) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), op, ": expected a floating input, got ",
                   self.scalar_type());
}

Tensor& assign(Tensor& self, const Tensor& result) {
  self.copy_(result);
  return self;
}

}  // namespace

Tensor relu6(const Tensor& self) { return F::relu6(self); }
Tensor& relu6_(Tensor& self) {
  F::relu6(self, F::ReLU6FuncOptions(true));
  return self;
}

Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale,
           const Scalar& input_scale) {
  check_floating(self, "elu");
  const double s = scale.to<double>();
  return F::detail::elu_family(self, "elu", s, alpha.to<double>() * s, input_scale.to<double>(),
                               false);
}
Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  check_floating(self, "elu_");
  const double s = scale.to<double>();
  F::detail::elu_family(self, "elu_", s, alpha.to<double>() * s, input_scale.to<double>(), true);
  return self;
}

Tensor selu(const Tensor& self) { return F::selu(self); }
Tensor& selu_(Tensor& self) {
  F::selu(self, F::SELUFuncOptions(true));
  return self;
}

Tensor celu(const Tensor& self, const Scalar& alpha) {
  return F::celu(self, F::CELUFuncOptions().alpha(alpha.to<double>()));
}
Tensor& celu_(Tensor& self, const Scalar& alpha) {
  F::celu(self, F::CELUFuncOptions().alpha(alpha.to<double>()).inplace(true));
  return self;
}

Tensor silu(const Tensor& self) { return F::silu(self); }
Tensor& silu_(Tensor& self) { return assign(self, F::silu(self)); }

Tensor mish(const Tensor& self) { return F::mish(self); }
Tensor& mish_(Tensor& self) { return assign(self, F::mish(self)); }

Tensor gelu(const Tensor& self, std::string_view approximate) {
  return F::gelu(self, F::GELUFuncOptions().approximate(std::string(approximate)));
}
Tensor& gelu_(Tensor& self, std::string_view approximate) {
  return assign(self, gelu(self, approximate));
}
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, std::string_view approximate) {
  return ops::gelu_backward_op().call(grad_output, self, std::string(approximate), Tensor());
}

Tensor hardshrink(const Tensor& self, const Scalar& lambd) {
  check_floating(self, "hardshrink");
  const double l = lambd.to<double>();
  return in_opmath(self, [&](const Tensor& x) {
    return where(x.ge(-l).logical_and(x.le(l)), zeros_like(x), x);
  });
}

Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  check_floating(self, "softshrink");
  const double l = lambd.to<double>();
  BRASA_CHECK(l >= 0, "softshrink: lambda must be greater or equal to 0, but found to be ", l);
  return in_opmath(self, [&](const Tensor& x) {
    return where(x.gt(l), x - l, where(x.lt(-l), x + l, zeros_like(x)));  // NaN gives 0
  });
}

Tensor hardsigmoid(const Tensor& self) { return F::hardsigmoid(self); }
Tensor& hardsigmoid_(Tensor& self) {
  F::hardsigmoid(self, true);
  return self;
}

Tensor hardswish(const Tensor& self) { return F::hardswish(self); }
Tensor& hardswish_(Tensor& self) {
  F::hardswish(self, true);
  return self;
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return F::hardtanh(
      self, F::HardtanhFuncOptions().min_val(min_val.to<double>()).max_val(max_val.to<double>()));
}
Tensor& hardtanh_(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  F::hardtanh(self, F::HardtanhFuncOptions()
                        .min_val(min_val.to<double>())
                        .max_val(max_val.to<double>())
                        .inplace(true));
  return self;
}

Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  return F::leaky_relu(self, F::LeakyReLUFuncOptions().negative_slope(negative_slope.to<double>()));
}
Tensor& leaky_relu_(Tensor& self, const Scalar& negative_slope) {
  F::leaky_relu(
      self, F::LeakyReLUFuncOptions().negative_slope(negative_slope.to<double>()).inplace(true));
  return self;
}

Tensor log_sigmoid(const Tensor& self) { return F::logsigmoid(self); }

std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& self) {
  Tensor out = F::logsigmoid(self);
  NoGradGuard no_grad;  // the buffer is what libtorch's backward reads, never differentiated
  return {out, in_opmath(self, [](const Tensor& x) { return x.abs().neg().exp(); })};
}

Tensor& logit_(Tensor& self, std::optional<double> eps) { return assign(self, logit(self, eps)); }

Tensor prelu(const Tensor& self, const Tensor& weight) {
  check_floating(self, "prelu");
  BRASA_CHECK(weight.defined() && weight.dim() <= 1,
              "prelu: expected weight to be a scalar or 1-d tensor, got ",
              weight.defined() ? weight.sizes() : IntArrayRef{});
  const int64_t channels = self.dim() >= 2 ? self.size(1) : 1;
  const int64_t n = weight.numel();
  BRASA_CHECK(n == 1 || n == channels, "prelu: weight of ", n,
              " elements does not match the channel size ", channels, " of input ", self.sizes());
  std::vector<int64_t> shape(static_cast<size_t>(self.dim()), 1);
  if (self.dim() >= 2) shape[1] = n;
  Tensor w = weight.reshape(shape);
  return where(self.gt(0), self, self * w);
}

namespace {

/// The slopes rrelu applies: 1 for positive elements; in training U(lower, upper) for the others,
/// in evaluation (lower + upper) / 2.
Tensor rrelu_slopes(const Tensor& self, double lower, double upper, bool training,
                    std::optional<Generator> generator) {
  NoGradGuard no_grad;
  if (!training) return full_like(self, (lower + upper) / 2);
  Tensor draws = empty_like(self).uniform_(lower, upper, generator);
  return where(self.gt(0), ones_like(self), draws);
}

Tensor rrelu_impl(const Tensor& self, const Tensor& noise, double lower, double upper,
                  bool training, std::optional<Generator> generator) {
  check_floating(self, "rrelu");
  BRASA_CHECK(lower <= upper, "rrelu: lower bound ", lower, " must be at most upper bound ", upper);
  if (!training)
    return F::leaky_relu(self, F::LeakyReLUFuncOptions().negative_slope((lower + upper) / 2));
  Tensor slopes = rrelu_slopes(self, lower, upper, training, generator);
  if (noise.defined()) {
    BRASA_CHECK(noise.sizes() == self.sizes(), "rrelu_with_noise: expected noise of shape ",
                self.sizes(), ", got ", noise.sizes());
    NoGradGuard no_grad;
    noise.copy_(slopes);
  }
  return self * slopes;
}

}  // namespace

Tensor rrelu(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training,
             std::optional<Generator> generator) {
  return rrelu_impl(self, Tensor(), lower.to<double>(), upper.to<double>(), training, generator);
}
Tensor& rrelu_(Tensor& self, const Scalar& lower, const Scalar& upper, bool training,
               std::optional<Generator> generator) {
  return assign(self, rrelu(self, lower, upper, training, generator));
}

Tensor rrelu_with_noise(const Tensor& self, const Tensor& noise, const Scalar& lower,
                        const Scalar& upper, bool training, std::optional<Generator> generator) {
  return rrelu_impl(self, noise, lower.to<double>(), upper.to<double>(), training, generator);
}
Tensor& rrelu_with_noise_(Tensor& self, const Tensor& noise, const Scalar& lower,
                          const Scalar& upper, bool training, std::optional<Generator> generator) {
  return assign(self, rrelu_with_noise(self, noise, lower, upper, training, generator));
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return F::softplus(
      self, F::SoftplusFuncOptions().beta(beta.to<double>()).threshold(threshold.to<double>()));
}

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  BRASA_CHECK(self.defined(), "threshold: got an undefined tensor");
  BRASA_CHECK_TYPE(self.scalar_type() != kBool, "threshold: not implemented for Bool");
  return where(self.le(threshold), full_like(self, value), self);  // NaN stays NaN
}
Tensor& threshold_(Tensor& self, const Scalar& th, const Scalar& value) {
  return assign(self, threshold(self, th, value));
}

Tensor glu(const Tensor& self, int64_t dim) { return F::glu(self, F::GLUFuncOptions(dim)); }

Tensor glu_jvp(const Tensor& glu, const Tensor& x, const Tensor& dx, int64_t dim) {
  check_floating(x, "glu_jvp");
  BRASA_CHECK(x.dim() > 0 && dx.sizes() == x.sizes(), "glu_jvp: expected x and dx of the same ",
              "shape (not 0-d), got ", x.sizes(), " and ", dx.sizes());
  const int64_t d = brasa::detail::wrap_dim(dim, x.dim(), "glu_jvp");
  const int64_t n = x.size(d);
  BRASA_CHECK(n % 2 == 0, "glu_jvp: halving dimension must be even, but dimension ", d, " is size ",
              n);
  Tensor gate = x.narrow(d, n / 2, n / 2).sigmoid();
  return gate * dx.narrow(d, 0, n / 2) + glu * (1 - gate) * dx.narrow(d, n / 2, n / 2);
}

}  // namespace brasa
