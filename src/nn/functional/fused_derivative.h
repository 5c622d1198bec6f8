#pragma once
// Composite functionals with a derivative of their own: the forward is computed from other ops
// without recording, and one node applies a closed-form gradient. Used where differentiating the
// composite would be wrong at special points (where() branches that give inf * 0 = NaN at ±inf,
// clamp's boundary rule) or wasteful.

#include "autograd/function_node.h"

namespace brasa::nn::functional::detail {

/// forward(x) -> y; backward(g, x, y) -> dL/dx.
template <class Forward, class Backward>
Tensor with_derivative(const char* node, const char* op, const Tensor& x, Forward forward,
                       Backward backward) {
  if (!autograd::any_requires_grad({&x})) return forward(x);
  Tensor y;
  {
    NoGradGuard no_grad;
    y = forward(x);
  }
  autograd::record_unary(node, op, x, y, true, true, std::move(backward));
  return y;
}

}  // namespace brasa::nn::functional::detail
