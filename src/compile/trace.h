#pragma once
// Capture: runs a user function under the Trace dispatch key and records every op it calls into a
// Graph (Note [Tracing] in trace.cpp).

#include <string>
#include <vector>

#include "brasa/compile.h"
#include "compile/graph.h"

namespace brasa::compiler {

/// The backward half of a joint capture (Note [Joint capture] in trace.cpp): graph nodes from
/// `first_node` on are the backward of the nodes before it.
struct BackwardTrace {
  int32_t first_node = 0;
  std::vector<int32_t> roots;         ///< indices of the function's outputs that require grad
  std::vector<int32_t> grad_outputs;  ///< per root: the value standing for its gradient
  std::vector<int32_t> targets;       ///< values whose gradients are computed (inputs, captured)
  std::vector<int32_t> gradients;     ///< per target: the value of its gradient, or -1 (unused)
  std::string fallback;  ///< non-empty: why the backward cannot be compiled (runs eagerly)
  bool hooks = false;    ///< the function registers tensor hooks: it must run eagerly
};

struct TraceResult {
  Graph graph;
  std::vector<Tensor> outputs;  ///< the function's results (computed eagerly while tracing)
  std::string break_reason;     ///< empty unless the function needed data (Note [Graph breaks])
  BackwardTrace backward;       ///< with `joint` and an output that requires grad
  bool has_backward = false;
};

/// Runs `run(fn, inputs)` once under the tracer. With `fullgraph`, a graph break throws a
/// RuntimeError naming the op and `name` (the compiled function). With `joint`, the backward of
/// the outputs that require grad is traced too (Note [Joint capture]).
TraceResult trace(const std::vector<Tensor>& inputs, compile_detail::Runner run, const void* fn,
                  bool fullgraph, const std::string& name, bool joint = false);

}  // namespace brasa::compiler
