#pragma once
// Splitting a joint forward + backward trace into the graph a compiled call runs and the graph its
// backward runs (Note [Partition] in partition.cpp).

#include <vector>

#include "compile/trace.h"

namespace brasa::compiler {

struct Partition {
  /// The forward: the traced function's nodes; outputs = its results, then `saved`.
  Graph forward;
  /// The backward: recomputed forward nodes, then the traced backward; outputs = the gradients
  /// (per BackwardTrace::targets that has one). Same value numbering as the joint trace.
  Graph backward;
  std::vector<int32_t> saved;  ///< forward values the backward reads (kept by the autograd node)
  /// Forward values eager's backward nodes read (what eager keeps; the function's inputs aside).
  int64_t eager_saved = 0;
};

/// Partitions `joint` (trace order: the forward, then from b.first_node the backward).
Partition partition(const Graph& joint, const BackwardTrace& b);

}  // namespace brasa::compiler
