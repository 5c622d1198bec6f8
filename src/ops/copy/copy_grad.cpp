// Derivatives of copy_ and fill_ (in-place: the old value of self gets no gradient). clone, to
// and contiguous are built on copy_, so they are differentiable through it.

#include "autograd/function_node.h"
#include "backends/cpu/kernels/copy_kernels.h"
#include "brasa/ops/factory.h"
#include "ops/copy/copy_ops.h"

namespace brasa::ops {

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

Tensor zero_grad_like(BackwardContext& ctx) {
  return ctx.needs(0) ? zeros_like(ctx.grad(0)) : Tensor();
}

Tensor copy_ag(const Tensor& self, const Tensor& src) {
  if (!autograd::any_requires_grad({&self, &src})) {
    BelowAutograd below;
    return copy_op().call(self, src);
  }
  autograd::check_inplace(self, "copy_");
  auto fn = autograd::make_function_node(
      "CopyBackwards", "copy_", {&self, &src},
      [](BackwardContext& ctx) -> variable_list {
        return {zero_grad_like(ctx), ctx.needs(1) ? ctx.grad(0) : Tensor()};
      },
      false);
  {
    BelowAutograd below;
    copy_op().call(self, src);
  }
  autograd::rebase_history(self, fn);
  return self;
}

Tensor fill_ag(const Tensor& self, const Scalar& value) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return fill_op().call(self, value);
  }
  autograd::check_inplace(self, "fill_");
  auto fn = autograd::make_function_node(
      "FillBackward0", "fill_", {&self},
      [](BackwardContext& ctx) -> variable_list { return {zero_grad_like(ctx)}; }, false);
  {
    BelowAutograd below;
    fill_op().call(self, value);
  }
  autograd::rebase_history(self, fn);
  return self;
}

}  // namespace

BRASA_REGISTER_KERNEL(copy_op, copy_ag, Autograd)
BRASA_REGISTER_KERNEL(fill_op, fill_ag, Autograd)

}  // namespace brasa::ops
