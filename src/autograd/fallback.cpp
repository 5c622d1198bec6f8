// The Autograd key's fallback, for ops with no derivative of their own: run the op below
// autograd; if an input requires grad, floating outputs get a NotImplemented grad_fn that raises
// (naming the op) only if a backward reaches it. Ops listed as non-differentiable just pass
// through: their outputs never require grad.

#include "autograd/function_node.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::autograd {
namespace {

void for_each_tensor(const Stack& stack, const std::function<void(const Tensor&)>& f) {
  for (const Value& v : stack) {
    if (v.is_tensor()) {
      if (v.tensor().defined()) f(v.tensor());
    } else if (v.is_tensor_list()) {
      for (const Tensor& t : v.get<std::vector<Tensor>>())
        if (t.defined()) f(t);
    }
  }
}

void not_implemented_fallback(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  std::vector<Tensor> inputs;
  bool need = false;
  if (GradMode::is_enabled()) {
    for_each_tensor(stack, [&](const Tensor& t) {
      inputs.push_back(t);
      need = need || t.requires_grad();
    });
  }
  {
    BelowAutograd below;
    op.call_boxed(stack);
  }
  if (!need) return;
  std::shared_ptr<Node> node;
  for_each_tensor(stack, [&](const Tensor& out) {
    if (!out.is_floating_point()) return;
    if (!node) {
      node = std::make_shared<NotImplementedNode>(op.name());
      node->set_next_edges(collect_next_edges(ArrayRef<Tensor>(inputs)));
      node->set_forward_op(op.name().c_str());
    }
    bool inplace = false;
    for (const Tensor& in : inputs) inplace = inplace || in.is_same(out);
    if (inplace) {
      check_inplace(out, op.name().c_str());
      rebase_history(out, node);
    } else {
      set_history(out, node);
    }
  });
}

const bool registered = [] {
  set_backend_fallback(DispatchKey::Autograd, &not_implemented_fallback);
  return true;
}();

}  // namespace

void non_differentiable_kernel(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  BelowAutograd below;
  op.call_boxed(stack);
}

}  // namespace brasa::autograd
