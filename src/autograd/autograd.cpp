// torch::autograd::backward / grad: root checks, then the engine (Note [Autograd engine]).

#include "brasa/autograd/autograd.h"

#include "autograd/autograd_meta.h"
#include "autograd/engine.h"
#include "brasa/autograd/history.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/ops/factory.h"

namespace brasa::autograd {
namespace {

// Root edges and gradients: implicit ones only for one-element outputs.
void make_roots(const char* api, const variable_list& outputs, const variable_list& grads,
                EngineRequest& req) {
  BRASA_CHECK(grads.empty() || grads.size() == outputs.size(), api, ": got ", grads.size(),
              " gradients for ", outputs.size(), " tensors");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    BRASA_CHECK(out.defined(), api, ": tensor ", i, " is undefined");
    BRASA_CHECK(out.requires_grad(), api, ": element ", i,
                " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grads.empty() ? Tensor() : grads[i];
    if (!g.defined()) {
      BRASA_CHECK(out.numel() == 1, api,
                  ": grad can be implicitly created only for scalar outputs, but tensor ", i,
                  " has shape ", out.sizes());
      BRASA_CHECK_TYPE(!out.is_complex(), api,
                       ": grad can be implicitly created only for real scalar outputs, but "
                       "tensor ",
                       i, " is ", out.dtype());
      g = detail::empty_generic(out.sizes(), out.dtype(), out.device());
      if (g.is_cpu()) {  // one element: written directly, no fill kernel
        detail::store_scalar(1, g.dtype(), g.data_ptr());
      } else {
        g.fill_(1);
      }
    } else {
      BRASA_CHECK(g.sizes() == out.sizes(), api, ": mismatch in shape: grad_output[", i,
                  "] has a shape of ", g.sizes(), " and output[", i, "] has a shape of ",
                  out.sizes());
    }
    req.roots.push_back(gradient_edge(out));
    req.root_grads.push_back(std::move(g));
  }
}

}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors,
              std::optional<bool> retain_graph, bool create_graph, const variable_list& inputs) {
  EngineRequest req;
  make_roots("backward", tensors, grad_tensors, req);
  req.keep_graph = retain_graph.value_or(create_graph);
  req.create_graph = create_graph;
  if (create_graph) {  // as libtorch, once per process (Note [Warn always])
    static std::atomic<bool> warned{false};
    if (warning_due(warned))
      warn(
          "Using backward() with create_graph=True makes every leaf's .grad hold the graph that "
          "computed it, a reference cycle between a parameter and its gradient that keeps both "
          "alive. Prefer torch::autograd::grad to build the gradients' graph, or reset the "
          "leaves' .grad (mutable_grad().reset()) after use to free it.");
  }
  for (const Tensor& in : inputs) {
    BRASA_CHECK(in.requires_grad(), "backward: an input in inputs= does not require grad");
    req.outputs.push_back(gradient_edge(in));
  }
  variable_list got = run_backward(std::move(req));
  // Non-leaf inputs= get their .grad from what arrived at them.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].is_leaf() || !got[i].defined()) continue;
    Tensor& slot = inputs[i].mutable_grad();
    slot = slot.defined() ? slot + got[i] : got[i];
  }
}

variable_list grad(const variable_list& outputs, const variable_list& inputs,
                   const variable_list& grad_outputs, std::optional<bool> retain_graph,
                   bool create_graph, bool allow_unused) {
  BRASA_CHECK(!inputs.empty(), "grad: grad requires non-empty inputs.");
  EngineRequest req;
  make_roots("grad", outputs, grad_outputs, req);
  req.keep_graph = retain_graph.value_or(create_graph);
  req.create_graph = create_graph;
  req.accumulate_grad = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    BRASA_CHECK(inputs[i].requires_grad(), "grad: input ", i, " does not require grad");
    req.outputs.push_back(gradient_edge(inputs[i]));
  }
  variable_list got = run_backward(std::move(req));
  for (size_t i = 0; i < got.size(); ++i) {
    BRASA_CHECK(
        got[i].defined() || allow_unused, "grad: input ", i, " (shape ", inputs[i].sizes(),
        ") was not used in the graph: One of the differentiated Tensors appears to not have "
        "been used in the graph. Set allow_unused=True if this is the desired behavior.");
    if (got[i].defined() && !create_graph) got[i] = got[i].detach();
  }
  return got;
}

}  // namespace brasa::autograd
