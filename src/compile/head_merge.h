#pragma once
// Attention's output written in merged-head layout, so the head merge after it is a view (Note
// [Attention output in merged heads] in src/ops/attention/attention.cpp; head_merge.cpp).

#include <cstdint>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// An _scaled_dot_product_attention_forward node whose output is read only by transpose(y, 1, 2)
/// (and as a graph output), that transpose only by a copy_ into a fresh `empty` of its shape:
/// `y.transpose(1, 2).reshape(B, L, H * Ev)`. Two steps: the attention, run where it ran, writes
/// output rows into a [B, L, H, Ev] buffer; the copy, where it ran, passes that buffer on.
struct HeadMerge {
  int32_t attention = -1;
  int32_t copy = -1;

  bool operator==(const HeadMerge&) const = default;
};

/// The nodes of `g` with that pattern where nothing later writes the output, the copy or a view
/// of either (they share memory now).
std::vector<HeadMerge> find_head_merges(const Graph& g);

/// Runs the step of `m` at `node` (its attention or its copy).
void run_head_merge(const Graph& g, const HeadMerge& m, int32_t node, std::vector<Tensor>& env);

}  // namespace brasa::compiler
