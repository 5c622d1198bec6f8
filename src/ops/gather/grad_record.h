#pragma once
// Recording helper shared by the derivatives of the gather, shape and ternary pointwise families:
// runs an op below autograd and records a node, as set_history for a fresh result or
// rebase_history when the op wrote into `target` (in-place forms; views get a CopySlices).

#include <utility>

#include "autograd/function_node.h"

namespace brasa::ops::grad {

/// `t`, or a copy when it shares storage with the in-place `target` (which the op overwrites).
inline Tensor saved_input(const Tensor& t, const Tensor& target) {
  if (target.defined() && t.defined() && t.storage().get() == target.storage().get())
    return autograd::clone_for_save(t);
  return t;
}

/// Records `closure` as the grad_fn of run()'s result. `target`: the tensor the op writes into
/// (undefined for out-of-place ops); it must be `self`, else out= with grad is refused.
template <class F, class Run>
std::pair<Tensor, std::shared_ptr<autograd::FunctionNode<F>>> record(
    const char* node_name, const char* op, std::initializer_list<const Tensor*> inputs,
    const Tensor& self, const Tensor& target, F closure, Run run, bool has_saved = true) {
  const bool inplace = target.defined();
  if (inplace && !target.is_same(self)) autograd::throw_out_with_grad(op);
  if (inplace) autograd::check_inplace(self, op);
  auto node = autograd::make_function_node(node_name, op, inputs, std::move(closure), has_saved);
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = run();
  }
  if (inplace) {
    autograd::rebase_history(r, node);
  } else {
    autograd::set_history(r, node);
  }
  return {r, node};
}

}  // namespace brasa::ops::grad
