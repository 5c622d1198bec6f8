#pragma once
// A compiled function's backward (Note [Compiled backward] in compiled_backward.cpp): the forward
// graph runs without recording autograd, and one autograd node runs the compiled backward graph.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "compile/fusion.h"
#include "compile/partition.h"

namespace brasa::compiler {

struct CompiledBackward {
  std::string name;  ///< of the compiled function (logs)
  Partition part;
  BackwardTrace trace;
  int32_t num_outputs = 0;  ///< the function's results (the forward's first outputs)
  Plan forward_plan, backward_plan;
  Plan forward_eager;  ///< the forward op by op (higher-order gradients)
  /// Set by a create_graph backward: later calls replay the graph op by op (eager autograd).
  std::atomic<bool> eager{false};
};

/// Why `cb`'s graphs cannot be run this way (an output that is an input, a view, a duplicate...),
/// or "" when they can.
std::string backward_unsupported(const Graph& joint, const BackwardTrace& b);

/// Runs the forward on `inputs` and makes one autograd node, running the compiled backward, the
/// grad_fn of the outputs that required grad when traced.
std::vector<Tensor> run_with_backward(const std::shared_ptr<CompiledBackward>& cb,
                                      const std::vector<Tensor>& inputs);

}  // namespace brasa::compiler
