#pragma once
// The autograd API of libtorch: torch::autograd::backward and torch::autograd::grad.

#include <optional>

#include "brasa/autograd/grad_mode.h"
#include "brasa/autograd/node.h"

namespace brasa::autograd {

// libtorch also spells these torch::autograd::GradMode, ...
using ::brasa::AutoGradMode;
using ::brasa::GradMode;
using ::brasa::NoGradGuard;

/// Computes the gradients of `tensors` w.r.t. the graph leaves and accumulates them into .grad
/// (only into `inputs` when given). `grad_tensors` default to ones for one-element tensors;
/// non-scalar roots need an explicit gradient (ValueError otherwise). The graph is freed unless
/// retain_graph (default: create_graph); create_graph records the backward for higher orders.
BRASA_API void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
                        std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                        const variable_list& inputs = {});

/// Returns d(outputs)/d(inputs) contracted with grad_outputs, without touching .grad.
/// An input that outputs do not depend on is an error unless allow_unused (then undefined).
BRASA_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs = {},
                             std::optional<bool> retain_graph = std::nullopt,
                             bool create_graph = false, bool allow_unused = false);

/// libtorch's make_variable: a leaf that shares `data`'s storage without its history, requiring
/// grad when asked (tensor_data() or detach() of data with requires_grad set).
inline Variable make_variable(const Tensor& data, bool requires_grad = false,
                              bool /*allow_tensor_metadata_change*/ = true) {
  Variable v = data.detach();
  if (requires_grad) v.set_requires_grad(true);
  return v;
}

}  // namespace brasa::autograd
