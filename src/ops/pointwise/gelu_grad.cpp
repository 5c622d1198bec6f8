// Derivatives of gelu (the fused gelu_backward op) and of gelu_backward (closed forms written with
// differentiable ops, for double backward):
//   exact: f'(x) = Phi(x) + x phi(x),  f''(x) = phi(x) (2 - x^2)
//   tanh:  u = k (x + c x^3), t = tanh(u), f'(x) = (1 + t) / 2 + x (1 - t^2) u' / 2,
//          f''(x) = (1 - t^2) (u' + x (u'' - 2 t u'^2) / 2),  u' = k (1 + 3 c x^2), u'' = 6 k c x
// with k = sqrt(2 / pi), c = 0.044715.

#include <cmath>
#include <string>

#include "autograd/function_node.h"
#include "brasa/ops/pointwise.h"
#include "ops/pointwise/gelu_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

// f''(x), with ops (so it has derivatives of its own).
Tensor gelu_second_derivative(const Tensor& x, const std::string& approximate) {
  if (approximate == "tanh") {
    const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
    const Tensor x2 = x * x;
    const Tensor t = ((x + x2 * x * c) * k).tanh();
    const Tensor du = (x2 * (3 * c) + 1) * k;
    const Tensor d2u = x * (6 * k * c);
    return (1 - t * t) * (du + x * (d2u - t * du * du * 2) * 0.5);
  }
  const Tensor pdf = (x * x * -0.5).exp() * (0.5 * M_2_SQRTPI * M_SQRT1_2);
  return pdf * (2 - x * x);
}

struct GeluClosure {
  SavedVariable x;
  std::string approximate;
  variable_list operator()(BackwardContext& ctx) const {
    return {gelu_backward_op().call(ctx.grad(0), ctx.unpack(x), approximate, Tensor())};
  }
};

Tensor gelu_autograd(const Tensor& self, std::string approximate, const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return gelu_op().call(self, approximate, out);
  }
  GeluClosure closure{SavedVariable(autograd::saved_input(self, out)), approximate};
  return autograd::record("GeluBackward0", "gelu", {&self}, self, out, std::move(closure),
                          [&] { return gelu_op().call(self, approximate, out); })
      .first;
}

struct GeluBackwardClosure {
  SavedVariable grad, x;
  std::string approximate;
  variable_list operator()(BackwardContext& ctx) const {
    const Tensor& gg = ctx.grad(0);
    const Tensor x_value = ctx.unpack(x);
    return {ctx.needs(0) ? gelu_backward_op().call(gg, x_value, approximate, Tensor()) : Tensor(),
            ctx.needs(1) ? gg * ctx.unpack(grad) * gelu_second_derivative(x_value, approximate)
                         : Tensor()};
  }
};

Tensor gelu_backward_autograd(const Tensor& grad, const Tensor& self, std::string approximate,
                              const Tensor& out) {
  auto run = [&] { return gelu_backward_op().call(grad, self, approximate, out); };
  if (!autograd::any_requires_grad({&grad, &self})) {
    BelowAutograd below;
    return run();
  }
  if (out.defined()) autograd::throw_out_with_grad("gelu_backward");
  GeluBackwardClosure closure{SavedVariable(grad), SavedVariable(self), approximate};
  return autograd::record("GeluBackwardBackward0", "gelu_backward", {&grad, &self}, grad, Tensor(),
                          std::move(closure), run)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(gelu_op, gelu_autograd, Autograd)
BRASA_REGISTER_KERNEL(gelu_backward_op, gelu_backward_autograd, Autograd)

}  // namespace brasa::ops
