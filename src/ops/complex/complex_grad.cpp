// Derivatives of the complex family's views. With PyTorch's convention (Note [Complex gradients]
// in autograd/engine.cpp) the gradient of a complex z = x + iy is dL/dx + i dL/dy, which is the
// pair (dL/dx, dL/dy) that view_as_real's gradient holds: each view's backward is the other view.

#include "autograd/function_node.h"
#include "brasa/ops/complex.h"
#include "ops/complex/complex_ops.h"

namespace brasa::ops {
namespace {

// A gradient may be expanded or strided (sum's backward expands): both views need the layout of
// Note [Complex views], so it is made contiguous first.
Tensor view_as_real_ag(const Tensor& self) {
  return autograd::record_one_input(
      "ViewAsRealBackward0", "view_as_real", self, [&] { return view_as_real_op().call(self); },
      [](const Tensor& g) { return view_as_complex(g.contiguous()); });
}
Tensor view_as_complex_ag(const Tensor& self) {
  return autograd::record_one_input(
      "ViewAsComplexBackward0", "view_as_complex", self,
      [&] { return view_as_complex_op().call(self); },
      [](const Tensor& g) { return view_as_real(g.contiguous()); });
}

}  // namespace

BRASA_REGISTER_KERNEL(view_as_real_op, view_as_real_ag, Autograd)
BRASA_REGISTER_KERNEL(view_as_complex_op, view_as_complex_ag, Autograd)

}  // namespace brasa::ops
