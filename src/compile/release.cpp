#include "compile/release.h"

#include <algorithm>

#include "compile/fusion.h"

namespace brasa::compiler {

// Note [Values released after their last use]
// A plan's environment holds one tensor per value. Held until the graph returned, every
// intermediate of a forward or a backward (a training step's backward has hundreds) stayed
// allocated to the end: the graph's memory was the sum of its intermediates, and each new result
// came from memory no op had touched lately, so the caching allocator could not hand back a block
// still in the cache, as it does for eager's temporaries freed when their last reader is done. So
// each step lists the values it reads or writes for the last time, and the runner drops them after
// it: the memory goes back to the allocator as in eager (a view keeps its base's memory alive, as
// in eager). Outputs of the graph are read by the caller afterwards and kept; inputs, literals and
// captured tensors are the caller's.
std::vector<std::vector<int32_t>> release_points(const Graph& g, const Plan& plan) {
  std::vector<int32_t> last(g.values.size(), -1);
  auto touch_node = [&](int32_t node, int32_t step) {
    const Node& n = g.nodes[node];
    for (const ArgRef& r : n.refs) last[r.value] = step;
    for (const ArgRef& r : n.results) last[r.value] = step;
    for (const SizeRef& s : n.sizes) last[s.input] = step;
  };
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& s = plan.steps[i];
    const auto step = static_cast<int32_t>(i);
    if (s.kernel >= 0) {
      const Kernel& k = plan.kernels[s.kernel];
      for (int32_t v : k.inputs) last[v] = step;
      for (int32_t v : k.outputs) last[v] = step;
    } else if (s.matmul >= 0) {
      for (int32_t node : plan.matmuls[s.matmul].nodes) touch_node(node, step);
    } else if (s.attention >= 0) {
      const AttentionSlices& a = plan.attentions[s.attention];
      for (int32_t node : {a.node, a.copies[0], a.copies[1], a.copies[2]}) touch_node(node, step);
    } else if (s.pool_relu >= 0) {
      touch_node(plan.pool_relus[s.pool_relu].pool, step);
      touch_node(plan.pool_relus[s.pool_relu].relu, step);
    } else {
      touch_node(s.node, step);  // a node, or its part of a head merge
    }
  }
  for (int32_t o : g.outputs) last[o] = -1;
  std::vector<std::vector<int32_t>> releases(plan.steps.size());
  for (size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].kind == ValueKind::Node && last[v] >= 0)
      releases[last[v]].push_back(static_cast<int32_t>(v));
  return releases;
}

}  // namespace brasa::compiler
