#include "compile/pool_relu.h"

#include <string>

#include "brasa/dispatch/record_function.h"
#include "ops/pool/pool_ops.h"

namespace brasa::compiler {

std::vector<PoolRelu> find_pool_relus(const Graph& g) {
  std::vector<PoolRelu> found;
  const Uses uses(g);
  for (int32_t i = 0; i < static_cast<int32_t>(g.nodes.size()); ++i) {
    const Node& n = g.nodes[i];
    int32_t dims = 0;
    for (int32_t d = 1; d <= 3; ++d)
      if (n.op->name() == "max_pool" + std::to_string(d) + "d_with_indices_backward") dims = d;
    if (dims == 0 || n.mutates || n.results.size() != 1 || n.results[0].element >= 0 ||
        n.refs.size() != 3)
      continue;
    const int32_t r = n.results[0].value, self = n.refs[1].value;
    if (n.refs[1].slot != 1 || uses.output[r] || uses.readers[r].size() != 1) continue;
    const int32_t t = uses.readers[r][0];
    const Node& c = g.nodes[t];
    bool ok = c.op->name() == "threshold_backward" && !c.mutates && c.refs.size() == 2 &&
              c.results.size() == 1 && c.refs[0].slot == 0 && c.refs[0].value == r &&
              c.refs[1].slot == 1 && c.refs[1].value == self;
    // Nothing between the two writes (the pool's input is read again at the threshold's place).
    for (int32_t j = i + 1; ok && j < t; ++j) ok = !g.nodes[j].mutates;
    if (ok) found.push_back({i, t, dims});
  }
  return found;
}

void run_pool_relu(const Graph& g, const PoolRelu& p, std::vector<Tensor>& env) {
  const Node& n = g.nodes[p.pool];
  // Timed under the pool backward's name, as the dispatcher would.
  profiler::RecordScope scope(n.op->name(), profiler::EventKind::Op);
  const Stack s = bind_arguments(n, env);
  env[g.nodes[p.relu].results[0].value] = ops::max_pool_backward_relu(
      p.dims, s[0].tensor(), s[1].tensor(), s[2].get<std::vector<int64_t>>(),
      s[3].get<std::vector<int64_t>>(), s[4].get<std::vector<int64_t>>(),
      s[5].get<std::vector<int64_t>>(), s[6].get<bool>(), s[7].tensor());
}

}  // namespace brasa::compiler
