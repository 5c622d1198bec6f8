#pragma once
// Shared by the pool family's derivatives: records a one-input node whose gradient is a dispatched
// backward op applied to the incoming gradient.

#include <utility>
#include <vector>

#include "autograd/function_node.h"

namespace brasa::ops::pool {

using Ints = std::vector<int64_t>;
inline Ints to_vec(IntArrayRef a) { return Ints(a.begin(), a.end()); }

/// Makes `back(grad, ctx)` the gradient of `self` for output `r` (already computed below
/// autograd); `back` unpacks what it saved through ctx.
template <class Back>
void record(const char* node, const char* op, const Tensor& self, const Tensor& r, Back back,
            bool has_saved = true) {
  auto fn = autograd::make_function_node(
      node, op, {&self},
      [back = std::move(back)](autograd::BackwardContext& ctx) -> autograd::variable_list {
        return {ctx.needs(0) ? back(ctx.grad(0), ctx) : Tensor()};
      },
      has_saved);
  autograd::set_history(r, fn);
}

/// Runs a backward op `bwd(grad_output)` below autograd and, when grad_output requires grad,
/// records `back(gg)` as grad_output's gradient. The backward ops are linear in grad_output and
/// use their other tensor inputs (self, indices) only for shapes or positions, so those get none.
template <class Run, class Back>
Tensor linear_backward(const char* node, const char* op, const Tensor& grad_output, Run run,
                       Back back) {
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = run();
  }
  if (!autograd::any_requires_grad({&grad_output})) return r;
  record(
      node, op, grad_output, r,
      [back = std::move(back)](const Tensor& gg, autograd::BackwardContext&) { return back(gg); },
      false);
  return r;
}

/// gg's values at `indices` (flat offsets within each of the last n dims' planes), shaped like
/// indices: the derivative of a max-pool backward wrt its grad_output.
Tensor gather_planes(const Tensor& gg, const Tensor& indices, int64_t n);

}  // namespace brasa::ops::pool
