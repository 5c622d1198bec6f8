#include "compile/partition.h"

#include <set>

#include "compile/codegen.h"

namespace brasa::compiler {

// Note [Partition]
// The backward graph reads three kinds of forward values: the function's inputs and constants
// (always available), and intermediates or outputs of the forward, which eager's autograd nodes
// kept as saved tensors. An intermediate computed by fusible pointwise ops from available values
// (recursively) is recomputed at the start of the backward instead of saved: the copies of those
// nodes fuse with the backward's own pointwise ops, and the forward keeps no buffer for them.
// Everything else is saved: the forward graph returns it after the function's results. So the
// backward keeps at most what eager's nodes keep (tests/compile check the counts). Values keep the
// joint trace's numbering in both graphs.

Partition partition(const Graph& joint, const BackwardTrace& b) {
  Partition p;
  const auto first = static_cast<size_t>(b.first_node);
  std::vector<int32_t> producer(joint.values.size(), -1);
  for (size_t i = 0; i < first; ++i)
    for (const ArgRef& r : joint.nodes[i].results) producer[r.value] = static_cast<int32_t>(i);
  // Forward values the backward reads (not the function's inputs, constants or stand-ins).
  std::set<int32_t> read;
  for (size_t i = first; i < joint.nodes.size(); ++i)
    for (const ArgRef& r : joint.nodes[i].refs)
      if (producer[r.value] >= 0) read.insert(r.value);
  for (int32_t g : b.gradients)
    if (g >= 0 && producer[g] >= 0) read.insert(g);
  p.eager_saved = static_cast<int64_t>(read.size());
  // Recomputable: a fusible pointwise result of available or recomputable values.
  std::vector<int8_t> memo(joint.values.size(), -1);
  auto recomputable = [&](auto&& self, int32_t v) -> bool {
    if (producer[v] < 0) return true;  // an input, a constant or a backward stand-in
    if (memo[v] >= 0) return memo[v] != 0;
    const Node& n = joint.nodes[producer[v]];
    bool ok = fusible_pointwise(joint, n);
    for (const ArgRef& r : n.refs) ok = ok && self(self, r.value);
    memo[v] = ok ? 1 : 0;
    return ok;
  };
  std::set<int32_t> recompute_nodes;
  auto collect = [&](auto&& self, int32_t v) -> void {
    if (producer[v] < 0 || recompute_nodes.count(producer[v])) return;
    recompute_nodes.insert(producer[v]);
    for (const ArgRef& r : joint.nodes[producer[v]].refs) self(self, r.value);
  };
  for (int32_t v : read) {
    if (recomputable(recomputable, v))
      collect(collect, v);
    else
      p.saved.push_back(v);
  }
  p.forward.num_inputs = joint.num_inputs;
  p.forward.values = joint.values;
  for (size_t i = 0; i < first; ++i) p.forward.nodes.push_back(clone(joint.nodes[i]));
  p.forward.outputs = joint.outputs;
  p.forward.outputs.insert(p.forward.outputs.end(), p.saved.begin(), p.saved.end());
  p.backward.num_inputs = joint.num_inputs;
  p.backward.values = joint.values;
  for (int32_t i : recompute_nodes) p.backward.nodes.push_back(clone(joint.nodes[i]));
  for (size_t i = first; i < joint.nodes.size(); ++i)
    p.backward.nodes.push_back(clone(joint.nodes[i]));
  for (int32_t g : b.gradients)
    if (g >= 0) p.backward.outputs.push_back(g);
  return p;
}

}  // namespace brasa::compiler
