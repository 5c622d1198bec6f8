#include "compile/head_merge.h"

#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include "brasa/dispatch/record_function.h"
#include "ops/attention/attention_ops.h"

namespace brasa::compiler {
namespace {

bool is_transpose_1_2(const Node& n) {
  if (n.op->name() != "transpose" || n.args.size() != 3 || !n.args[1].is<int64_t>() ||
      !n.args[2].is<int64_t>())
    return false;
  const int64_t a = n.args[1].get<int64_t>(), b = n.args[2].get<int64_t>();
  return (a == 1 && b == 2) || (a == 2 && b == 1);
}

int64_t numel(const ValueInfo& v) {
  int64_t n = 1;
  for (int64_t d : v.sizes) n *= d;
  return n;
}

// Whether no node after `from` writes one of `values` or a view of one. A resize_ to the same
// number of elements (how `reshape` reshapes its fresh copy without grad) only reshapes the tensor
// it is given: a view.
bool unwritten_after(const Graph& g, int32_t from, int32_t except, std::set<int32_t> values) {
  for (auto j = static_cast<size_t>(from) + 1; j < g.nodes.size(); ++j) {
    const Node& m = g.nodes[j];
    bool reads = false;
    for (const ArgRef& r : m.refs) reads = reads || values.count(r.value) > 0;
    if (!reads) continue;
    const bool reshapes = m.op->name() == "resize_" && m.refs.size() == 1 &&
                          m.results.size() == 1 &&
                          numel(g.values[m.refs[0].value]) == numel(g.values[m.results[0].value]);
    if (m.mutates && static_cast<int32_t>(j) != except && !reshapes) return false;
    if (m.is_view || reshapes)
      for (const ArgRef& r : m.results) values.insert(r.value);
  }
  return true;
}

}  // namespace

std::vector<HeadMerge> find_head_merges(const Graph& g) {
  std::vector<HeadMerge> found;
  if (const char* e = std::getenv("BRASA_COMPILE_HEAD_MERGE"); e && std::string(e) == "0")
    return found;
  const Uses uses(g);
  for (int32_t i = 0; i < static_cast<int32_t>(g.nodes.size()); ++i) {
    const Node& n = g.nodes[i];
    if (n.op->name() != "_scaled_dot_product_attention_forward" || n.mutates || n.results.empty() ||
        n.results[0].slot != 0 || n.results[0].element >= 0)
      continue;
    const int32_t y = n.results[0].value;
    if (g.values[y].sizes.size() != 4 || uses.readers[y].size() != 1) continue;
    const Node& t = g.nodes[uses.readers[y][0]];
    if (!is_transpose_1_2(t) || t.refs.size() != 1 || t.results.size() != 1) continue;
    const int32_t yt = t.results[0].value;
    if (uses.output[yt] || uses.readers[yt].size() != 1) continue;
    const int32_t ci = uses.readers[yt][0];
    const Node& c = g.nodes[ci];
    if (c.op->name() != "copy_" || c.refs.size() != 2 || c.refs[0].slot != 0 ||
        c.refs[1].slot != 1 || c.refs[1].value != yt || c.results.size() != 1)
      continue;
    // The destination: an `empty` of the transpose's shape and dtype that nothing else reads.
    const int32_t e = c.refs[0].value;
    const int32_t pe = uses.producer[e];
    if (pe < 0 || g.nodes[pe].op->name() != "empty" || uses.output[e] ||
        uses.readers[e].size() != 1 || g.values[e].sizes != g.values[yt].sizes ||
        g.values[e].dtype != g.values[yt].dtype)
      continue;
    if (unwritten_after(g, i, ci, {y, yt, e, c.results[0].value})) found.push_back({i, ci});
  }
  return found;
}

void run_head_merge(const Graph& g, const HeadMerge& m, int32_t node, std::vector<Tensor>& env) {
  const Node& n = g.nodes[node];
  if (node == m.copy) {
    // The merged buffer's transpose is contiguous: the copy is an alias of it (a tensor of its
    // own, which a later resize_ may reshape), else the op fell back.
    const Tensor& src = env[n.refs[1].value];
    if (src.is_contiguous()) {
      env[n.results[0].value] = src.alias();
      return;
    }
    Stack s = bind_arguments(n, env);
    n.op->call_boxed(s);
    env[n.results[0].value] = std::move(s[0].tensor());
    return;
  }
  profiler::RecordScope scope(n.op->name(), profiler::EventKind::Op);  // as the dispatcher would
  const Stack s = bind_arguments(n, env);
  auto tensor = [&](size_t i) { return s[i].is_tensor() ? s[i].tensor() : Tensor(); };
  const std::optional<double> scale =
      s[6].is<double>() ? std::optional<double>(s[6].get<double>()) : std::nullopt;
  std::optional<Generator> gen;
  if (s[7].is<Generator>()) gen = s[7].get<Generator>();
  auto [out, lse, philox] = ops::scaled_dot_product_attention_forward_merged(
      tensor(0), tensor(1), tensor(2), tensor(3), s[4].get<double>(), s[5].get<bool>(), scale,
      std::move(gen));
  const Tensor results[3] = {out, lse, philox};
  for (const ArgRef& r : n.results) env[r.value] = results[r.slot];
}

}  // namespace brasa::compiler
