#include "compile/passes.h"

#include <unordered_map>
#include <unordered_set>

#include "brasa/dispatch/grad_mode.h"

namespace brasa::compiler {

// Note [Passes]
// The passes keep eager's observable behaviour: a node that writes an argument or draws random
// numbers is never dropped, merged or folded; a graph output is never merged with another value
// or folded (each call returns fresh tensors, as eager does); and in a graph that mutates anything
// CSE and folding are skipped, since two equal-looking reads may see different data there.

namespace {

bool pure(const Node& n) { return !n.mutates && !n.is_random; }

std::unordered_set<int32_t> output_set(const Graph& g) {
  return std::unordered_set<int32_t>(g.outputs.begin(), g.outputs.end());
}

bool any_result_in(const Node& n, const std::unordered_set<int32_t>& set) {
  for (const ArgRef& r : n.results)
    if (set.count(r.value)) return true;
  return false;
}

}  // namespace

void eliminate_dead_code(Graph& g) {
  std::vector<bool> live(g.values.size(), false);
  for (int32_t o : g.outputs) live[o] = true;
  std::vector<bool> keep(g.nodes.size(), false);
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    bool k = !pure(n) || n.results.empty();
    for (const ArgRef& r : n.results) k = k || live[r.value];
    if (!k) continue;
    keep[i] = true;
    for (const ArgRef& r : n.refs) live[r.value] = true;
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (keep[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

void eliminate_common_subexpressions(Graph& g) {
  if (g.has_mutation()) return;
  const auto outputs = output_set(g);
  std::vector<int32_t> replace(g.values.size());
  for (size_t v = 0; v < replace.size(); ++v) replace[v] = static_cast<int32_t>(v);
  std::unordered_map<std::string, size_t> seen;
  std::vector<Node> kept;
  for (Node& n : g.nodes) {
    for (ArgRef& r : n.refs) r.value = replace[r.value];
    if (!pure(n) || any_result_in(n, outputs)) {
      kept.push_back(std::move(n));
      continue;
    }
    std::string key = n.op->name() + "(";
    for (const Value& a : n.args) key += value_key(a) + ",";
    for (const ArgRef& r : n.refs)
      key += std::to_string(r.slot) + "." + std::to_string(r.element) + "=" +
             std::to_string(r.value) + ",";
    for (const SizeRef& r : n.sizes)
      key += std::to_string(r.slot) + "." + std::to_string(r.element) + "=size(" +
             std::to_string(r.input) + "," + std::to_string(r.dim) + ":" +
             std::to_string(r.dim_end) + "),";
    auto [it, inserted] = seen.emplace(key, kept.size());
    if (inserted) {
      kept.push_back(std::move(n));
      continue;
    }
    const Node& first = kept[it->second];
    for (size_t i = 0; i < n.results.size() && i < first.results.size(); ++i)
      replace[n.results[i].value] = first.results[i].value;
  }
  g.nodes = std::move(kept);
}

void fold_constants(Graph& g) {
  if (g.has_mutation()) return;
  const auto outputs = output_set(g);
  std::vector<Tensor> env(g.values.size());
  for (size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].kind == ValueKind::Literal) env[v] = g.values[v].constant;
  NoGradGuard no_grad;  // a folded value is a constant: it has no history
  std::vector<Node> kept;
  for (Node& n : g.nodes) {
    // A node with size arguments (Note [Size arguments]) depends on the inputs' sizes.
    bool foldable = pure(n) && !n.results.empty() && n.sizes.empty() && !any_result_in(n, outputs);
    for (const ArgRef& r : n.refs)
      foldable = foldable && g.values[r.value].kind == ValueKind::Literal;
    for (const ArgRef& r : n.results) foldable = foldable && g.values[r.value].sizes.size() <= 4;
    if (!foldable) {
      kept.push_back(std::move(n));
      continue;
    }
    Stack stack = bind_arguments(n, env);
    n.op->call_boxed(stack);
    for (const ArgRef& r : n.results) {
      Tensor t = r.element < 0 ? stack[r.slot].tensor()
                               : stack[r.slot].get<std::vector<Tensor>>()[r.element];
      if (t.numel() > 4096) {
        foldable = false;
        break;
      }
      env[r.value] = t;
    }
    if (!foldable) {
      kept.push_back(std::move(n));
      continue;
    }
    for (const ArgRef& r : n.results) {
      g.values[r.value].kind = ValueKind::Literal;
      g.values[r.value].constant = env[r.value];
    }
  }
  g.nodes = std::move(kept);
}

}  // namespace brasa::compiler
