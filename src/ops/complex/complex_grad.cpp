// Derivatives of the complex family's views. With PyTorch's convention (Note [Complex gradients]
// in autograd/engine.cpp) the gradient of a complex z = x + iy is dL/dx + i dL/dy, which is the
// pair (dL/dx, dL/dy) that view_as_real's gradient holds: each view's backward is the other view.

#include "autograd/function_node.h"
#include "brasa/ops/complex.h"
#include "ops/complex/complex_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

template <class Forward, class Backward>
Tensor record_complex_view(const char* node, const char* op, const Tensor& self, Forward forward,
                           Backward backward) {
  Tensor r;
  {
    BelowAutograd below;
    r = forward();
  }
  if (!autograd::any_requires_grad({&self})) return r;
  auto fn = autograd::make_function_node(
      node, op, {&self},
      [backward](BackwardContext& ctx) -> variable_list { return {backward(ctx.grad(0))}; }, false);
  autograd::set_history(r, fn);
  return r;
}

// A gradient may be expanded or strided (sum's backward expands): both views need the layout of
// Note [Complex views], so it is made contiguous first.
Tensor view_as_real_ag(const Tensor& self) {
  return record_complex_view(
      "ViewAsRealBackward0", "view_as_real", self, [&] { return view_as_real_op().call(self); },
      [](const Tensor& g) { return view_as_complex(g.contiguous()); });
}
Tensor view_as_complex_ag(const Tensor& self) {
  return record_complex_view(
      "ViewAsComplexBackward0", "view_as_complex", self,
      [&] { return view_as_complex_op().call(self); },
      [](const Tensor& g) { return view_as_real(g.contiguous()); });
}

}  // namespace

BRASA_REGISTER_KERNEL(view_as_real_op, view_as_real_ag, Autograd)
BRASA_REGISTER_KERNEL(view_as_complex_op, view_as_complex_ag, Autograd)

}  // namespace brasa::ops
