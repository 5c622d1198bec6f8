#pragma once
// How derivatives are written (internal). A derivative is a closure run by a FunctionNode:
//
//   auto node = make_function_node("MulBackward0", "mul", {&a, &b},
//       [sa = SavedVariable(a), sb = SavedVariable(b)](BackwardContext& ctx) -> variable_list {
//         const Tensor& g = ctx.grad(0);
//         return {ctx.needs(0) ? g * ctx.unpack(sb) : Tensor(),
//                 ctx.needs(1) ? g * ctx.unpack(sa) : Tensor()};
//       });
//   set_history(result, node);
//
// It returns one gradient per forward input (undefined = none); the engine sums broadcast
// gradients back to each input's shape and casts them to its dtype, so formulas need not.

#include <optional>
#include <utility>

#include "brasa/autograd/history.h"
#include "brasa/autograd/saved_variable.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "dispatch/node_name.h"

namespace brasa::autograd {

/// What a backward formula sees: incoming gradients, which input gradients are needed, and
/// saved tensors unpacked with their version check.
class BackwardContext {
 public:
  BackwardContext(Node& node, variable_list& grads) : node_(node), grads_(grads) {}
  const Tensor& grad(size_t i = 0) const { return grads_[i]; }
  size_t num_grads() const { return grads_.size(); }
  bool needs(size_t i) const { return node_.should_compute_output(i); }
  Tensor unpack(const SavedVariable& v) const { return v.unpack(node_.shared_from_this()); }
  const Node& node() const { return node_; }

 private:
  Node& node_;
  variable_list& grads_;
};

/// Fills undefined incoming gradients (multi-output ops where some outputs got none) with zeros.
BRASA_API void materialize_grads(const Node& node, variable_list& grads);
[[noreturn]] BRASA_API void throw_released(const Node& node);

template <class F>
class FunctionNode final : public Node {
 public:
  FunctionNode(const char* name, F fn, bool has_saved)
      : name_(take_node_name(name)), fn_(std::move(fn)), has_saved_(has_saved) {}
  std::string name() const override { return name_; }
  variable_list apply(variable_list&& grads) override {
    if (BRASA_UNLIKELY(!fn_)) throw_released(*this);
    bool any = false;
    for (const Tensor& g : grads) any = any || g.defined();
    if (!any) return variable_list(num_outputs());
    if (grads.size() > 1) materialize_grads(*this, grads);
    BackwardContext ctx(*this, grads);
    return (*fn_)(ctx);
  }
  // Like PyTorch, only a node that saved tensors refuses a second backward.
  void release_variables() override {
    if (has_saved_) fn_.reset();
  }
  F& closure() { return *fn_; }

 private:
  const char* name_;
  std::optional<F> fn_;
  bool has_saved_;
};

/// A node running `fn`, with edges to `inputs` (read now, before any in-place change).
/// `has_saved`: whether fn holds SavedVariables (freed after a backward without retain_graph).
template <class F>
std::shared_ptr<FunctionNode<F>> make_function_node(const char* name, const char* op,
                                                    std::initializer_list<const Tensor*> inputs,
                                                    F fn, bool has_saved = true) {
  auto node = std::make_shared<FunctionNode<F>>(name, std::move(fn), has_saved);
  node->set_next_edges(collect_next_edges(inputs));
  node->set_forward_op(op);
  return node;
}

/// RAII: calls below the autograd layer (the kernels themselves).
class BelowAutograd : public ExcludeDispatchKeyGuard {
 public:
  BelowAutograd() : ExcludeDispatchKeyGuard(DispatchKey::Autograd) {}
};

/// Throws ValueError: an out= argument given while an input requires grad.
[[noreturn]] BRASA_API void throw_out_with_grad(const char* op);

/// A copy of `t` with t's history (for in-place ops that must save their input's old value).
BRASA_API Tensor clone_for_save(const Tensor& t);

/// `t`, or a copy when it shares storage with the in-place `target` (which the op overwrites).
inline Tensor saved_input(const Tensor& t, const Tensor& target) {
  if (target.defined() && t.defined() && t.storage().get() == target.storage().get())
    return clone_for_save(t);
  return t;
}

/// Records `closure` as the grad_fn of run()'s result, run below autograd: set_history for a fresh
/// result, rebase_history when the op wrote into `target` (in-place forms; views get a
/// CopySlices). `target` is undefined for out-of-place ops; otherwise it must be `self`, as out=
/// with grad is refused. Edges are read from `inputs` before run().
template <class F, class Run>
std::pair<Tensor, std::shared_ptr<FunctionNode<F>>> record(
    const char* node_name, const char* op, std::initializer_list<const Tensor*> inputs,
    const Tensor& self, const Tensor& target, F closure, Run run, bool has_saved = true) {
  const bool inplace = target.defined();
  if (inplace && !target.is_same(self)) throw_out_with_grad(op);
  if (inplace) check_inplace(self, op);
  auto node = make_function_node(node_name, op, inputs, std::move(closure), has_saved);
  Tensor r;
  {
    BelowAutograd below;
    r = run();
  }
  if (inplace) {
    rebase_history(r, node);
  } else {
    set_history(r, node);
  }
  return {r, node};
}

/// An out-of-place op of one differentiable input whose derivative needs nothing saved:
/// backward(grad) gives self's gradient. Runs run() below autograd, and makes no node when self
/// does not require grad.
template <class Run, class Backward>
Tensor record_one_input(const char* node_name, const char* op, const Tensor& self, Run run,
                        Backward backward) {
  if (!any_requires_grad({&self})) {
    BelowAutograd below;
    return run();
  }
  return record(
             node_name, op, {&self}, self, Tensor(),
             [backward](BackwardContext& ctx) -> variable_list { return {backward(ctx.grad(0))}; },
             run, false)
      .first;
}

/// Closure of a one-input derivative: formula(grad, saved input, saved result) (either saved
/// tensor may be absent).
template <class F>
struct UnaryClosure {
  SavedVariable x, y;
  F formula;
  variable_list operator()(BackwardContext& ctx) const {
    return {formula(ctx.grad(0), ctx.unpack(x), ctx.unpack(y))};
  }
};

/// Makes a node running `formula` the grad_fn of `result` (an output of op(self)), saving self
/// and/or the result for it.
template <class F>
void record_unary(const char* node, const char* op, const Tensor& self, const Tensor& result,
                  bool save_self, bool save_result, F formula) {
  auto fn = make_function_node(node, op, {&self},
                               UnaryClosure<F>{save_self ? SavedVariable(self) : SavedVariable(),
                                               SavedVariable(), std::move(formula)},
                               save_self || save_result);
  set_history(result, fn);
  if (save_result) fn->closure().y = SavedVariable(result, true);
}

/// Autograd kernel of ops whose outputs never require grad (comparisons, random fills of new
/// tensors, *_like factories): runs the op below autograd.
BRASA_API void non_differentiable_kernel(const OperatorHandle& op, DispatchKeySet keys,
                                         Stack& stack);

}  // namespace brasa::autograd

/// Marks an op non-differentiable: BRASA_NON_DIFFERENTIABLE(argmax_op).
#define BRASA_NON_DIFFERENTIABLE(op)                                                               \
  static const bool BRASA_CONCAT(brasa_nondiff_, __COUNTER__) = [] {                               \
    op().impl_boxed(::brasa::DispatchKey::Autograd, &::brasa::autograd::non_differentiable_kernel, \
                    __FILE__);                                                                     \
    return true;                                                                                   \
  }();
