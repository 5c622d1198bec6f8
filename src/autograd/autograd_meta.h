#pragma once
// AutogradMeta: what autograd keeps on a tensor that takes part in it (internal).

#include <memory>
#include <vector>

#include "brasa/autograd/node.h"

namespace brasa::autograd {

struct LeafHook {
  unsigned id;
  TensorPreHook fn;
};

struct AutogradMeta final : AutogradMetaInterface {
  bool requires_grad() const override { return requires_grad_ || grad_fn_ != nullptr; }
  void set_requires_grad(bool r) override { requires_grad_ = r; }

  bool requires_grad_ = false;
  uint32_t output_nr_ = 0;
  Tensor grad_;
  std::shared_ptr<Node> grad_fn_;
  std::weak_ptr<Node> grad_accumulator_;
  std::vector<LeafHook> hooks_;  // leaves: run by AccumulateGrad before accumulating
  std::vector<std::function<void(const Tensor&)>> post_accumulate_hooks_;
  std::shared_ptr<Tensor> retained_grad_;  // non-leaves after retain_grad()
  unsigned retains_grad_hook_id_ = 0;      // its hook on grad_fn_
  // For views with history: the storage version when grad_fn_ was last set. A different version
  // means the base was modified in place and grad_fn_ must be rebuilt from the base.
  bool is_view_ = false;
  uint32_t view_version_ = 0;
};

/// The tensor's meta, created if absent.
AutogradMeta& materialize_meta(const Tensor& t);
/// (Re)registers retain_grad()'s hook as the last pre-hook of m.grad_fn_, taking it off old_fn
/// (which may be m.grad_fn_ itself). After an in-place op .grad is the gradient of the new value,
/// and hooks registered later still run before it, as in libtorch 1.13 (whose retains_grad hooks
/// always run last). Does nothing unless the tensor retains grad.
void move_retains_grad_hook(AutogradMeta& m, const std::shared_ptr<Node>& old_fn);
/// Throws when `t` is a view whose creation kind is not DEFAULT, with history or a base that
/// requires grad, whose storage was written since (Note [View creation meta]); gradient_edge
/// calls it. In view_write_checks.cpp with the next two.
void check_view_not_rebased(const Tensor& t);
/// How the in-place checks' errors name the op writing into the tensor.
enum class InplaceOpName : uint8_t {
  kOfDispatchedOp,  ///< a dispatched op ("mul", "clamp.Tensor"): named "mul_", "clamp_"
  kAsGiven,         ///< printed as it is (a custom Function's node)
};
/// check_inplace (which names a dispatched op's in-place form) with the naming given.
void check_inplace_named(const Tensor& t, const char* op, InplaceOpName naming);
/// Throws libtorch's error for an in-place write by `op` into view `t` of creation kind `kind`.
[[noreturn]] void throw_view_write(const Tensor& t, CreationMeta kind, const char* op,
                                   InplaceOpName naming);
/// The name check_inplace's errors give the op ("mul" and "mul.Scalar" are "mul_").
std::string inplace_op_name(const char* op, InplaceOpName naming);
/// The tensor's meta or null.
inline AutogradMeta* get_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}

}  // namespace brasa::autograd
