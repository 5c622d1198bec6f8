// Note [Activation checkpointing]
// checkpoint(fn, inputs) runs fn with grad mode off, so none of fn's intermediate tensors are
// saved, and hands back its outputs with one node, CheckpointBackward, as their grad_fn. That node
// keeps only the inputs (and the RNG and autocast states of the call). When backward reaches it,
// it runs fn again with grad mode on, on detached copies of the inputs that require grad as the
// inputs did, and runs a nested backward from the recomputed outputs with the gradients that
// arrived: the parameters fn uses accumulate their .grad there, as they would have in one graph,
// and the detached inputs' .grad are the node's results. This is torch.utils.checkpoint's
// "reentrant" form. The recompute repeats the same kernels on the same values, so the gradients
// are bit-for-bit those of the plain graph; dropout draws the same masks because the default CPU
// generator is set to its state of the first call (and put back afterwards, so the training
// stream continues where it was).

#include "brasa/utils/checkpoint.h"

#include <memory>
#include <string>

#include "brasa/autograd/autograd.h"
#include "brasa/autograd/history.h"
#include "brasa/core/error.h"
#include "brasa/core/generator.h"
#include "brasa/dispatch/autocast_mode.h"

namespace brasa::utils {
namespace {

/// The CPU RNG state while it lives: set to `state`, the previous state put back at the end.
class RngStateGuard {
 public:
  explicit RngStateGuard(const Tensor& state) : saved_(get_rng_state()) { set_rng_state(state); }
  ~RngStateGuard() { set_rng_state(saved_); }
  RngStateGuard(const RngStateGuard&) = delete;
  RngStateGuard& operator=(const RngStateGuard&) = delete;

 private:
  Tensor saved_;
};

class CheckpointBackward final : public autograd::Node {
 public:
  CheckpointBackward(CheckpointFunction fn, std::vector<Tensor> inputs, Tensor rng_state)
      : fn_(std::move(fn)),
        inputs_(std::move(inputs)),
        rng_state_(std::move(rng_state)),
        autocast_enabled_(autocast::is_cpu_enabled()),
        autocast_dtype_(autocast::get_autocast_cpu_dtype()) {
    versions_.reserve(inputs_.size());
    for (const Tensor& t : inputs_) versions_.push_back(t.defined() ? t._version() : 0);
  }
  std::string name() const override { return "CheckpointBackward"; }
  /// Records forward output `i` as the node's next gradient input.
  void add_output(const Tensor& out, size_t i) {
    autograd::set_history(out, shared_from_this());
    differentiable_outputs_.push_back(i);
  }
  void release_variables() override {
    inputs_.clear();
    fn_ = nullptr;
    released_ = true;
  }

  autograd::variable_list apply(autograd::variable_list&& grads) override {
    BRASA_CHECK_TYPED(
        RuntimeError, !released_,
        "checkpoint: trying to backward through a checkpoint a second time (its inputs "
        "were freed by the first backward); pass retain_graph=true the first time");
    std::vector<Tensor> detached;
    detached.reserve(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const Tensor& t = inputs_[i];
      if (!t.defined()) {
        detached.emplace_back();
        continue;
      }
      BRASA_CHECK(t._version() == versions_[i], "checkpoint: input ", i,
                  " was modified in place after the checkpointed call (version ", versions_[i],
                  ", now ", t._version(), "); the recompute would use other values");
      Tensor d = t.detach();
      d.requires_grad_(t.requires_grad());
      detached.push_back(std::move(d));
    }
    std::vector<Tensor> outputs = recompute(detached);
    std::vector<Tensor> roots, root_grads;
    for (size_t g = 0; g < grads.size(); ++g) {
      const size_t i = differentiable_outputs_[g];
      BRASA_CHECK(i < outputs.size(), "checkpoint: the recompute returned ", outputs.size(),
                  " tensors, fewer than the first call");
      if (outputs[i].defined() && outputs[i].requires_grad() && grads[g].defined()) {
        roots.push_back(outputs[i]);
        root_grads.push_back(grads[g]);
      }
    }
    if (!roots.empty()) autograd::backward(roots, root_grads);
    autograd::variable_list result;
    result.reserve(detached.size());
    for (const Tensor& d : detached) result.push_back(d.defined() ? d.grad() : Tensor());
    return result;
  }

 private:
  std::vector<Tensor> recompute(const std::vector<Tensor>& inputs) const {
    std::unique_ptr<RngStateGuard> rng;
    if (rng_state_.defined()) rng = std::make_unique<RngStateGuard>(rng_state_);
    AutocastGuard autocast(autocast_dtype_, autocast_enabled_);
    AutoGradMode grad_on(true);
    return fn_(inputs);
  }

  CheckpointFunction fn_;
  std::vector<Tensor> inputs_;
  std::vector<uint32_t> versions_;
  std::vector<size_t> differentiable_outputs_;  // the output behind each incoming gradient
  Tensor rng_state_;
  bool autocast_enabled_;
  ScalarType autocast_dtype_;
  bool released_ = false;
};

}  // namespace

std::vector<Tensor> checkpoint(const CheckpointFunction& fn, const std::vector<Tensor>& inputs,
                               CheckpointOptions options) {
  BRASA_CHECK(static_cast<bool>(fn), "checkpoint: expected a function, got an empty one");
  bool needs_grad = false;
  if (GradMode::is_enabled())
    for (const Tensor& t : inputs) needs_grad = needs_grad || (t.defined() && t.requires_grad());
  if (!needs_grad) return fn(inputs);
  Tensor rng_state = options.preserve_rng_state ? get_rng_state() : Tensor();
  std::vector<Tensor> outputs;
  {
    AutoGradMode grad_off(false);
    outputs = fn(inputs);
  }
  auto node = std::make_shared<CheckpointBackward>(fn, inputs, std::move(rng_state));
  node->set_next_edges(autograd::collect_next_edges(ArrayRef<Tensor>(inputs)));
  node->set_forward_op("checkpoint");
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& out = outputs[i];
    if (!out.defined()) continue;
    out = autograd::shallow_alias(out);  // a fresh impl: an output may alias an input
    if (out.is_floating_point()) node->add_output(out, i);  // integers carry no gradient
  }
  return outputs;
}

Tensor checkpoint(const std::function<Tensor(const Tensor&)>& fn, const Tensor& input,
                  CheckpointOptions options) {
  BRASA_CHECK(static_cast<bool>(fn), "checkpoint: expected a function, got an empty one");
  CheckpointFunction wrapped = [fn](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{fn(in[0])};
  };
  return checkpoint(wrapped, {input}, options)[0];
}

}  // namespace brasa::utils
