#pragma once
// Attention's gradients written straight into the slices they are copied to (Note [Attention
// gradients into slices] in src/ops/attention/attention.cpp; attention_slices.cpp).

#include <cstdint>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// A scaled_dot_product_attention_backward node whose three results are each only copied into a
/// view of a buffer allocated after it; the step runs where the last copy ran.
struct AttentionSlices {
  int32_t node = -1;
  int32_t copies[3] = {-1, -1, -1};  ///< the copy_ of result i
  int32_t last_node = -1;

  bool operator==(const AttentionSlices&) const = default;
};

/// The nodes of `g` with that pattern where no node between the attention and its last copy
/// writes anything (so the attention reads the same inputs later).
std::vector<AttentionSlices> find_attention_slices(const Graph& g);

/// Runs `a`: the gradients into the copies' destinations, which are the copies' results.
void run_attention_slices(const Graph& g, const AttentionSlices& a, std::vector<Tensor>& env);

}  // namespace brasa::compiler
