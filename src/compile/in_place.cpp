#include "compile/in_place.h"

#include <cstdlib>
#include <numeric>
#include <string>

#include "compile/codegen.h"

namespace brasa::compiler {

// Note [Functional in-place]
// The autograd engine sums the gradients of a value used twice in place (`acc.add_(g)`), so a
// backward graph holds chains of in-place adds into one buffer (a residual stream's gradient, ten
// of them per transformer block), and an in-place node ended every fused run. Such a node may run
// out of place, its result written to a fresh tensor, when no one can tell: the written operand
// `s` is the result of a node (not a graph input, a captured tensor or a literal), and nothing that
// shares its memory (`s` itself, views of it or of its base, results of other in-place writes to
// it: one alias class, joined over every view and every mutating node that stays in place) is read
// by a later node or is a graph output. Eager's later readers read the in-place result through
// its own value id, which the kernel then produces. The arithmetic is the out-of-place op's (the
// same conversions, the same IEEE operation), so the values are eager's bit for bit. Candidates
// that fail the test run in place as before, which can join alias classes, so the test repeats
// until no candidate drops out. BRASA_COMPILE_IN_PLACE=0 turns this off (every in-place node ends
// its run, as before): the comparison of docs/benchmarks.md.

namespace {

struct Classes {
  std::vector<int32_t> parent;
  explicit Classes(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int32_t find(int32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  }
  void join(int32_t a, int32_t b) { parent[find(a)] = find(b); }
};

/// `a.op_(b)`: a binary op of the fusible table with out = self, self already of the result's
/// shape and dtype.
bool in_place_binary(const Graph& g, const Node& n) {
  if (!n.mutates || n.is_view || n.is_random || n.refs.size() != 3 || n.results.size() != 1 ||
      n.args.size() != 4)
    return false;
  const ArgRef& out = n.refs[2];
  if (out.slot != 3 || out.element >= 0 || out.value != n.refs[0].value) return false;
  Node pure = clone(n);
  pure.mutates = false;
  pure.refs.pop_back();
  pure.args[3] = Value();
  if (!fusible_pointwise(g, pure)) return false;
  const ValueInfo& self = g.values[n.refs[0].value];
  const ValueInfo& result = g.values[n.results[0].value];
  return self.kind == ValueKind::Node && self.sizes == result.sizes && self.dtype == result.dtype;
}

}  // namespace

std::vector<bool> functional_in_place(const Graph& g) {
  const auto count = static_cast<int32_t>(g.nodes.size());
  std::vector<bool> candidate(g.nodes.size(), false);
  static const bool off = [] {
    const char* v = std::getenv("BRASA_COMPILE_IN_PLACE");
    return v != nullptr && std::string(v) == "0";
  }();
  if (off) return candidate;
  for (int32_t i = 0; i < count; ++i) candidate[i] = in_place_binary(g, g.nodes[i]);
  std::vector<bool> output(g.values.size(), false);
  for (int32_t o : g.outputs) output[o] = true;
  // Per value: the last node reading it.
  std::vector<int32_t> last_read(g.values.size(), -1);
  for (int32_t i = 0; i < count; ++i)
    for (const ArgRef& r : g.nodes[i].refs) last_read[r.value] = i;
  for (bool changed = true; changed;) {
    changed = false;
    Classes c(g.values.size());
    for (int32_t i = 0; i < count; ++i) {
      const Node& n = g.nodes[i];
      if (candidate[i] || !(n.is_view || n.mutates)) continue;
      for (const ArgRef& res : n.results)
        for (const ArgRef& r : n.refs) c.join(res.value, r.value);
    }
    // Per class: the last node reading a member, and whether a member is observable from outside.
    std::vector<int32_t> class_read(g.values.size(), -1);
    std::vector<bool> outside(g.values.size(), false);
    for (int32_t v = 0; v < static_cast<int32_t>(g.values.size()); ++v) {
      const int32_t k = c.find(v);
      class_read[k] = std::max(class_read[k], last_read[v]);
      if (output[v] || g.values[v].kind != ValueKind::Node) outside[k] = true;
    }
    for (int32_t i = 0; i < count; ++i) {
      if (!candidate[i]) continue;
      const int32_t k = c.find(g.nodes[i].refs[0].value);
      if (outside[k] || class_read[k] > i) {
        candidate[i] = false;
        changed = true;
      }
    }
  }
  return candidate;
}

}  // namespace brasa::compiler
