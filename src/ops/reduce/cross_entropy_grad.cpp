// Derivatives of _softmax_cross_entropy (its fused backward op) and of that backward (written with
// differentiable ops, for double backward). With p = softmax(x) per row, s_i the loss's gradient
// for row i (grad, or grad / valid for mean; 0 for ignored rows) and h = one_hot(target):
//   backward:  G = (p - h) * s
//   d/dx of <gg, G> = s * p * (gg - sum_row(gg * p)),  d/ds_i = sum_row(gg * (p - h)).

#include "autograd/function_node.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/cross_entropy_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

struct CrossEntropyClosure {
  SavedVariable x;
  Tensor target;
  int64_t reduction, ignore;
  variable_list operator()(BackwardContext& ctx) const {
    return {softmax_cross_entropy_backward_op().call(ctx.grad(0), ctx.unpack(x), target, reduction,
                                                     ignore)};
  }
};

Tensor forward_autograd(const Tensor& self, const Tensor& target, int64_t reduction,
                        int64_t ignore) {
  auto run = [&] { return softmax_cross_entropy_op().call(self, target, reduction, ignore); };
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return run();
  }
  CrossEntropyClosure closure{SavedVariable(self), target, reduction, ignore};
  return autograd::record("NllLossBackward0", "cross_entropy", {&self}, self, Tensor(),
                          std::move(closure), run)
      .first;
}

struct CrossEntropyBackwardClosure {
  SavedVariable grad, x;
  Tensor target;
  int64_t reduction, ignore;
  variable_list operator()(BackwardContext& ctx) const {
    const Tensor& gg = ctx.grad(0);
    const Tensor xv = ctx.unpack(x), g = ctx.unpack(grad);
    const Tensor valid = target.ne(ignore);
    const Tensor count = valid.sum();
    const Tensor p = xv.softmax(1);
    // Per-row factor of the loss's gradient (undefined rows masked below).
    const Tensor mask = valid.to(xv.scalar_type());
    Tensor dx, dg;
    if (ctx.needs(1)) {
      Tensor s = reduction == 0 ? g * mask : reduction == 2 ? mask * g : mask * (g / count);
      dx = p * (gg - (gg * p).sum(IntArrayRef{1}, true)) * s.unsqueeze(1);
    }
    if (ctx.needs(0)) {
      const Tensor h = zeros_like(p).scatter(1, where(valid, target, 0).unsqueeze(1), 1.0);
      const Tensor rows = (gg * (p - h)).sum(IntArrayRef{1}) * mask;
      dg = reduction == 0 ? rows : reduction == 2 ? rows.sum() : rows.sum() / count;
    }
    return {dg, dx};
  }
};

Tensor backward_autograd(const Tensor& grad, const Tensor& self, const Tensor& target,
                         int64_t reduction, int64_t ignore) {
  auto run = [&] {
    return softmax_cross_entropy_backward_op().call(grad, self, target, reduction, ignore);
  };
  if (!autograd::any_requires_grad({&grad, &self})) {
    BelowAutograd below;
    return run();
  }
  CrossEntropyBackwardClosure closure{SavedVariable(grad), SavedVariable(self), target, reduction,
                                      ignore};
  return autograd::record("NllLossBackwardBackward0", "cross_entropy_backward", {&grad, &self},
                          grad, Tensor(), std::move(closure), run)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(softmax_cross_entropy_op, forward_autograd, Autograd)
BRASA_REGISTER_KERNEL(softmax_cross_entropy_backward_op, backward_autograd, Autograd)

}  // namespace brasa::ops
