#include "compile/compiled_backward.h"

#include <set>

#include "autograd/engine.h"
#include "brasa/autograd/autograd.h"
#include "brasa/autograd/history.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "compile/log.h"
#include "compile/runner.h"

namespace brasa::compiler {

// Note [Compiled backward]
// A call of a compiled function whose traced outputs required grad runs the forward graph with
// grad mode off (fused like any graph), keeps the values the partition saves (Note [Partition])
// and the function's inputs, and gives the outputs one grad_fn, CompiledFunctionBackward, whose
// next edges are the gradient edges of the inputs and captured tensors that required grad. Its
// apply runs the backward graph (fused too) on the saved values and the incoming gradients (zeros
// for an output that got none) and returns the gradients eager's engine computed in the trace:
// the same ops in the same order, and generated transcendentals are eager's (Note [Generated
// math]), so the gradients are eager's bit for bit (row kernels: within 1e-5). A backward with
// create_graph (higher-order gradients) recomputes the forward op by op with grad recording from
// the kept inputs and differentiates it with eager's engine, logs it (BRASA_LOG=backward), and from
// then on that graph is replayed op by op. An input modified in place after the forward fails the
// backward with eager's message, and a second backward after the saved values were freed fails as
// in eager.

namespace {

class CompiledFunctionBackward final : public autograd::Node {
 public:
  CompiledFunctionBackward(std::shared_ptr<CompiledBackward> cb, std::vector<Tensor> inputs,
                           std::vector<Tensor> saved)
      : cb_(std::move(cb)), inputs_(std::move(inputs)), saved_(std::move(saved)) {
    for (const Tensor& t : inputs_) versions_.push_back(t._version());
  }
  std::string name() const override { return "CompiledFunctionBackward"; }
  void release_variables() override {
    saved_.clear();
    inputs_.clear();
    released_ = true;
  }

  autograd::variable_list apply(autograd::variable_list&& grads) override {
    BRASA_CHECK_TYPED(ValueError, !released_, "Trying to backward through the graph of ", cb_->name,
                      " a second time (or directly access saved tensors after they have already "
                      "been freed). Specify retain_graph=true if you need to backward a second "
                      "time");
    for (size_t i = 0; i < inputs_.size(); ++i)
      BRASA_CHECK_TYPED(ValueError, inputs_[i]._version() == versions_[i],
                        "one of the variables needed for gradient computation has been modified "
                        "by an inplace operation: input ",
                        i, " of ", cb_->name, " ", inputs_[i].sizes(), " is at version ",
                        inputs_[i]._version(), "; expected version ", versions_[i], " instead");
    for (size_t i = 0; i < grads.size(); ++i)
      if (!grads[i].defined()) {
        const autograd::InputMetadata& m = input_metadata(i);
        grads[i] = zeros(IntArrayRef(m.sizes.data(), m.sizes.size()),
                         TensorOptions().dtype(m.dtype).device(m.device));
      }
    if (GradMode::is_enabled()) return higher_order(grads);
    NoGradGuard no_grad;
    const Graph& g = cb_->part.backward;
    std::vector<Tensor> env(g.values.size());
    for (size_t i = 0; i < inputs_.size(); ++i) env[i] = inputs_[i];
    // Note [Values released after their last use]: saved values the graph is done with go back
    // to the allocator during the backward, as eager's nodes release theirs one by one.
    const bool keep = autograd::backward_keeps_graph();
    for (size_t i = 0; i < saved_.size(); ++i)
      env[cb_->part.saved[i]] = keep ? saved_[i] : std::move(saved_[i]);
    for (size_t i = 0; i < grads.size(); ++i) env[cb_->trace.grad_outputs[i]] = grads[i];
    run_steps(g, cb_->backward_plan, env);
    autograd::variable_list out;
    for (int32_t v : cb_->trace.gradients) out.push_back(v >= 0 ? env[v] : Tensor());
    return out;
  }

 private:
  autograd::variable_list higher_order(const autograd::variable_list& grads) {
    log("backward", cb_->name +
                        ": a backward with create_graph through a compiled graph: the forward is "
                        "recomputed eagerly, and the graph runs op by op from now on");
    cb_->eager = true;
    std::vector<Tensor> outputs =
        run_graph(cb_->part.forward, cb_->forward_eager, inputs_, cb_->num_outputs);
    std::vector<Tensor> roots, targets;
    for (int32_t r : cb_->trace.roots) roots.push_back(outputs[r]);
    for (int32_t t : cb_->trace.targets)
      targets.push_back(t < static_cast<int32_t>(inputs_.size())
                            ? inputs_[t]
                            : cb_->part.forward.values[t].constant);
    autograd::variable_list out = autograd::grad(roots, targets, grads, /*retain_graph=*/true,
                                                 /*create_graph=*/true, /*allow_unused=*/true);
    return out;
  }

  std::shared_ptr<CompiledBackward> cb_;
  std::vector<Tensor> inputs_;
  std::vector<uint32_t> versions_;
  std::vector<Tensor> saved_;
  bool released_ = false;
};

}  // namespace

namespace {

// Note [Fresh copies]: `clone` (and so `reshape` and `contiguous` of a tensor that needs a copy)
// is `empty` then `copy_` into it. That write is the buffer's definition, not a mutation anyone
// can observe: the empty result is read by nothing else, before or after, and later ops read the
// copy_'s result. Such a copy_ does not stop a compiled backward.
bool fresh_copy(const Graph& g, size_t i, size_t end) {
  const Node& n = g.nodes[i];
  if (n.op->name() != "copy_" || n.refs.empty() || n.refs[0].slot != 0 || n.refs[0].element >= 0)
    return false;
  const int32_t dst = n.refs[0].value;
  bool defined_by_empty = false;
  for (size_t j = 0; j < end; ++j) {
    const Node& m = g.nodes[j];
    for (const ArgRef& r : m.results)
      if (r.value == dst)
        defined_by_empty = j < i && !m.is_view && !m.mutates &&
                           (m.op->name() == "empty" || m.op->name() == "empty_strided");
    if (j == i) continue;
    for (const ArgRef& r : m.refs)
      if (r.value == dst) return false;
  }
  for (int32_t o : g.outputs)
    if (o == dst) return false;
  return defined_by_empty;
}

}  // namespace

std::string backward_unsupported(const Graph& joint, const BackwardTrace& b) {
  std::set<int32_t> seen;
  const auto first = static_cast<size_t>(b.first_node);
  for (size_t i = 0; i < first; ++i)
    if (joint.nodes[i].mutates && !fresh_copy(joint, i, joint.nodes.size()))
      return "the function writes to a tensor in place";
  for (int32_t r : b.roots) {
    const int32_t v = joint.outputs[r];
    if (joint.values[v].kind != ValueKind::Node) return "an output is an input or a constant";
    if (!seen.insert(v).second) return "an output is returned twice";
    for (size_t i = 0; i < first; ++i)
      for (const ArgRef& res : joint.nodes[i].results)
        if (res.value == v && joint.nodes[i].is_view) return "an output is a view";
  }
  return "";
}

std::vector<Tensor> run_with_backward(const std::shared_ptr<CompiledBackward>& cb,
                                      const std::vector<Tensor>& inputs) {
  const Graph& g = cb->part.forward;
  std::vector<Tensor> env(g.values.size());
  {
    NoGradGuard no_grad;
    for (size_t i = 0; i < inputs.size(); ++i) env[i] = inputs[i];
    run_steps(g, cb->forward_plan, env);
  }
  std::vector<Tensor> outputs;
  for (int32_t i = 0; i < cb->num_outputs; ++i) outputs.push_back(env[g.outputs[i]]);
  std::vector<Tensor> saved;
  for (int32_t v : cb->part.saved) saved.push_back(autograd::shallow_alias(env[v]));
  std::vector<Tensor> targets;
  for (int32_t t : cb->trace.targets)
    targets.push_back(t < static_cast<int32_t>(inputs.size()) ? inputs[t] : env[t]);
  auto node = std::make_shared<CompiledFunctionBackward>(cb, inputs, std::move(saved));
  node->set_next_edges(autograd::collect_next_edges(targets));
  for (int32_t r : cb->trace.roots) autograd::set_history(outputs[r], node);
  return outputs;
}

}  // namespace brasa::compiler
