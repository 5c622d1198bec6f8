#pragma once
// The backward engine (internal): runs the graph behind `roots` (Note [Autograd engine]).

#include "brasa/autograd/node.h"

namespace brasa::autograd {

struct EngineRequest {
  edge_list roots;
  variable_list root_grads;
  bool keep_graph = false;
  bool create_graph = false;
  bool accumulate_grad = true;
  /// When non-empty, only what reaches these edges runs, and the gradients arriving at them are
  /// returned (in order; undefined where nothing arrived).
  edge_list outputs;
};

variable_list run_backward(EngineRequest req);

/// Whether the backward running on this thread needs the gradient sent along `edge` (false for an
/// edge toward nothing, or toward a part of the graph that grad()'s inputs do not lie below).
/// libtorch's task_should_compute_output; true outside a backward.
bool edge_needed(const Edge& edge);

/// Whether the backward running on this thread keeps the graph for another backward
/// (retain_graph): when not, a node may let go of its saved tensors while it runs, since the
/// engine releases them once it returns. True outside a backward.
BRASA_API bool backward_keeps_graph();

}  // namespace brasa::autograd
