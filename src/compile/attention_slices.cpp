#include "compile/attention_slices.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "brasa/dispatch/record_function.h"
#include "ops/attention/attention_ops.h"

namespace brasa::compiler {

std::vector<AttentionSlices> find_attention_slices(const Graph& g) {
  std::vector<AttentionSlices> found;
  // BRASA_COMPILE_ATTENTION_SLICES=0: the op and three copies, for comparisons.
  if (const char* e = std::getenv("BRASA_COMPILE_ATTENTION_SLICES"); e && std::string(e) == "0")
    return found;
  const Uses uses(g);
  const auto count = static_cast<int32_t>(g.nodes.size());
  for (int32_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op->name() != "scaled_dot_product_attention_backward" || n.results.size() != 3 ||
        n.is_random)
      continue;
    AttentionSlices a;
    a.node = i;
    bool ok = true;
    for (const ArgRef& r : n.results) {
      const int32_t v = r.value;
      ok = ok && r.element < 0 && r.slot >= 0 && r.slot < 3 && !uses.output[v] &&
           uses.readers[v].size() == 1;
      if (!ok) break;
      const int32_t ci = uses.readers[v][0];
      const Node& c = g.nodes[ci];
      ok = c.op->name() == "copy_" && c.refs.size() == 2 && c.refs[0].slot == 0 &&
           c.refs[1].slot == 1 && c.refs[1].value == v && c.results.size() == 1 &&
           g.values[c.refs[0].value].sizes == g.values[v].sizes &&
           g.values[c.refs[0].value].dtype == g.values[v].dtype;
      // The destination: views of an `empty` allocated after the attention.
      int32_t base = ok ? c.refs[0].value : -1;
      while (ok && uses.producer[base] >= 0 && g.nodes[uses.producer[base]].is_view &&
             !g.nodes[uses.producer[base]].mutates && !g.nodes[uses.producer[base]].refs.empty())
        base = g.nodes[uses.producer[base]].refs[0].value;
      ok = ok && uses.producer[base] > i && g.nodes[uses.producer[base]].op->name() == "empty";
      a.copies[r.slot] = ci;
      a.last_node = std::max(a.last_node, ci);
    }
    // Nothing between the attention and its last copy writes (but the other copies).
    for (int32_t j = i + 1; ok && j < a.last_node; ++j)
      ok = !g.nodes[j].mutates || std::count(a.copies, a.copies + 3, j) > 0;
    if (ok) found.push_back(a);
  }
  return found;
}

void run_attention_slices(const Graph& g, const AttentionSlices& a, std::vector<Tensor>& env) {
  // Timed under the op's name, as the dispatcher would.
  profiler::RecordScope scope(g.nodes[a.node].op->name(), profiler::EventKind::Op);
  const Stack s = bind_arguments(g.nodes[a.node], env);
  auto tensor = [&](size_t i) { return s[i].is_tensor() ? s[i].tensor() : Tensor(); };
  const std::optional<double> scale =
      s[10].is<double>() ? std::optional<double>(s[10].get<double>()) : std::nullopt;
  Tensor dst[3];
  for (int i = 0; i < 3; ++i) dst[i] = env[g.nodes[a.copies[i]].refs[0].value];
  ops::scaled_dot_product_attention_backward_into(
      tensor(0), tensor(1), tensor(2), tensor(3), tensor(4), tensor(5), tensor(6), tensor(7),
      s[8].get<double>(), s[9].get<bool>(), scale, dst[0], dst[1], dst[2]);
  for (int i = 0; i < 3; ++i) env[g.nodes[a.copies[i]].results[0].value] = dst[i];
}

}  // namespace brasa::compiler
