#pragma once
// Capture: runs a user function under the Trace dispatch key and records every op it calls into a
// Graph (Note [Tracing] in trace.cpp).

#include <string>
#include <vector>

#include "brasa/compile.h"
#include "compile/graph.h"

namespace brasa::compiler {

struct TraceResult {
  Graph graph;
  std::vector<Tensor> outputs;  ///< the function's results (computed eagerly while tracing)
  std::string break_reason;     ///< empty unless the function needed data (Note [Graph breaks])
};

/// Runs `run(fn, inputs)` once under the tracer. With `fullgraph`, a graph break throws a
/// RuntimeError naming the op and `name` (the compiled function).
TraceResult trace(const std::vector<Tensor>& inputs, compile_detail::Runner run, const void* fn,
                  bool fullgraph, const std::string& name);

}  // namespace brasa::compiler
