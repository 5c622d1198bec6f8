#include "compile/size_arguments.h"

#include <algorithm>

namespace brasa::compiler {

// Note [Size arguments]
// A C++ function reads sizes as plain integers (`x.size(0)`) and passes them to ops (`view({B, T,
// 3, H, C / H})`, `reshape({B, T, C})`, `arange(T)`); the tracer sees only the integers, so a
// graph traced at batch 32 holds 32 and the retrace at batch 17 has another structure. Under
// Dynamic::Automatic the two traces are compared node by node: when they are the same ops on the
// same values and differ only in int arguments (elements of int lists, integral Scalars), and
// each differing int is, in both traces, the size of one and the same input dim, or the product of
// one run of an input's dims (`view({B * T, C})` inside linear), the first graph records those
// arguments as size references (SizeRef): replaying a node reads them from the current inputs. The
// input dims become dynamic (sizes 2 and up), so every later batch size or sequence length runs
// that graph with no trace and no compiler run. The plans of both traces must also be the same
// (same steps, same generated source): a fused kernel planned on shapes that were equal only by
// coincidence at the first sizes is not reused. A difference that is no such size (T * T, a float
// computed from T, a size two inputs share, a different op) leaves the graphs separate, as before.
// Sizes a function computes with, rather than passes
// (`if (T > 50)`), are not seen: Automatic assumes the function does not branch on sizes.

namespace {

/// The runs of consecutive dims of one input whose sizes multiply to `was` at `sizes` and to `now`
/// in `inputs` (the shortest run from each first dim).
std::vector<SizeRef> dims_of(int64_t was, int64_t now,
                             const std::vector<std::vector<int64_t>>& sizes,
                             const std::vector<Tensor>& inputs) {
  std::vector<SizeRef> c;
  for (size_t i = 0; i < sizes.size() && i < inputs.size(); ++i) {
    const auto rank = std::min<int64_t>(static_cast<int64_t>(sizes[i].size()), inputs[i].dim());
    for (int64_t d = 0; d < rank; ++d) {
      int64_t a = 1, b = 1;
      for (int64_t e = d; e < rank; ++e) {
        a *= sizes[i][e];
        b *= inputs[i].size(e);
        if (a == was && b == now) {
          SizeRef r;
          r.input = static_cast<int32_t>(i);
          r.dim = static_cast<int32_t>(d);
          r.dim_end = static_cast<int32_t>(e + 1);
          c.push_back(r);
          break;
        }
        if (a > was || b > now) break;
      }
    }
  }
  return c;
}

const SizeRef* find_ref(const Node& n, int32_t slot, int32_t element) {
  for (const SizeRef& r : n.sizes)
    if (r.slot == slot && r.element == element) return &r;
  return nullptr;
}

bool same_refs(const std::vector<ArgRef>& a, const std::vector<ArgRef>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].slot != b[i].slot || a[i].element != b[i].element || a[i].value != b[i].value)
      return false;
  return true;
}

}  // namespace

std::string merge_size_arguments(Graph& g, const Graph& other,
                                 const std::vector<std::vector<int64_t>>& sizes,
                                 const std::vector<Tensor>& other_inputs) {
  if (g.num_inputs != other.num_inputs || g.values.size() != other.values.size() ||
      g.nodes.size() != other.nodes.size() || g.outputs != other.outputs)
    return "the graphs have different values or nodes";
  for (size_t v = 0; v < g.values.size(); ++v) {
    const ValueInfo &a = g.values[v], &b = other.values[v];
    if (a.kind != b.kind || a.dtype != b.dtype) return "value " + std::to_string(v) + " differs";
    if (a.kind == ValueKind::Captured && !a.constant.is_same(b.constant))
      return "captured value " + std::to_string(v) + " differs";
    if (a.kind == ValueKind::Literal &&
        (a.constant.sizes() != b.constant.sizes() || !a.constant.equal(b.constant)))
      return "literal " + std::to_string(v) + " differs";
  }
  std::vector<std::vector<SizeRef>> added(g.nodes.size());
  // An int at (node, slot, element): already a size reference (it must be that size again), the
  // same in both traces, or a new size reference.
  auto compare_int = [&](size_t n, int32_t slot, int32_t element, int64_t was, int64_t now,
                         bool scalar) -> std::string {
    const std::string where = g.nodes[n].op->name() + " (node " + std::to_string(n) + ")";
    if (const SizeRef* r = find_ref(g.nodes[n], slot, element))
      return r->of(other_inputs[r->input]) == now ? "" : where + ": a size argument moved";
    if (was == now) return "";
    std::vector<SizeRef> c = dims_of(was, now, sizes, other_inputs);
    if (c.size() != 1)
      return where + ": argument " + std::to_string(was) + " -> " + std::to_string(now) + " is " +
             (c.empty() ? "no product of an input's sizes" : "more than one input's size");
    c[0].slot = slot;
    c[0].element = element;
    c[0].scalar = scalar;
    added[n].push_back(c[0]);
    return "";
  };
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node &a = g.nodes[n], &b = other.nodes[n];
    if (a.op != b.op || a.args.size() != b.args.size() || !same_refs(a.refs, b.refs) ||
        !same_refs(a.results, b.results) || a.num_results != b.num_results)
      return "node " + std::to_string(n) + " differs";
    for (size_t s = 0; s < a.args.size(); ++s) {
      const Value &x = a.args[s], &y = b.args[s];
      const auto slot = static_cast<int32_t>(s);
      std::string why;
      if (x.is<int64_t>() && y.is<int64_t>()) {
        why = compare_int(n, slot, -1, x.get<int64_t>(), y.get<int64_t>(), false);
      } else if (x.is<Scalar>() && y.is<Scalar>() && x.get<Scalar>().isIntegral(false) &&
                 y.get<Scalar>().isIntegral(false)) {
        why = compare_int(n, slot, -1, x.get<Scalar>().to<int64_t>(), y.get<Scalar>().to<int64_t>(),
                          true);
      } else if (x.is<std::vector<int64_t>>() && y.is<std::vector<int64_t>>() &&
                 x.get<std::vector<int64_t>>().size() == y.get<std::vector<int64_t>>().size()) {
        const auto &xs = x.get<std::vector<int64_t>>(), &ys = y.get<std::vector<int64_t>>();
        for (size_t e = 0; e < xs.size() && why.empty(); ++e)
          why = compare_int(n, slot, static_cast<int32_t>(e), xs[e], ys[e], false);
      } else if (value_key(x) != value_key(y)) {
        why = a.op->name() + " (node " + std::to_string(n) + "): argument " + std::to_string(s) +
              " differs";
      }
      if (!why.empty()) return why;
    }
  }
  for (size_t n = 0; n < g.nodes.size(); ++n)
    g.nodes[n].sizes.insert(g.nodes[n].sizes.end(), added[n].begin(), added[n].end());
  return "";
}

}  // namespace brasa::compiler
