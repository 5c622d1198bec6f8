#include "compile/zero_slices.h"

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace brasa::compiler {

// Note [Zero slices]
// The backward of `parts[0], parts[1], parts[2]` (select, as attention's q, k, v come out of one
// projection) is, per part, a zero-filled buffer of the whole shape with the part's gradient
// copied into its slice, and the autograd engine sums the three buffers in place: three fills and
// two adds over the whole [3, ...] buffer for one buffer's worth of data. When `acc.add_(z)` adds
// such a buffer `z` (`empty`, `fill_(0)`, `select(d, k)`, `copy_(src)`, read by nothing else) into
// a buffer `acc` of the same kind whose slice k along d is still the fill's zero, the add becomes
// `acc.select(d, k).add_(src)` and `z` goes. Slice k gets 0 + src, as eager computes it; the other
// slices keep acc's values where eager adds z's zeros to them, which is the same value except that
// eager turns a -0 into +0 (x + 0 = x for every other x): results are equal, up to the sign of a
// zero. The add reads `src` later than eager's copy did, so no node in between may write anything
// but fresh buffers (empty's results and selects of them). BRASA_COMPILE_ZERO_SLICES=0 turns the
// rewrite off (for comparisons).

namespace {

struct ZeroBuffer {
  int32_t empty = -1, fill = -1, select = -1, copy = -1;  // node indices
  int64_t dim = 0;
  int32_t src = -1;  // the value copied in
};

bool named(const Node& n, const char* name) { return n.op->name() == name; }

bool is_zero(const Value& v) {
  if (v.is<Scalar>()) return v.get<Scalar>().to<double>() == 0.0;
  if (v.is<double>()) return v.get<double>() == 0.0;
  return v.is<int64_t>() && v.get<int64_t>() == 0;
}

bool int_arg(const Node& n, size_t slot, int64_t* out) {
  if (slot >= n.args.size() || !n.args[slot].is<int64_t>()) return false;
  *out = n.args[slot].get<int64_t>();
  return true;
}

}  // namespace

void merge_zero_slices(Graph& g) {
  static const bool off = [] {
    const char* v = std::getenv("BRASA_COMPILE_ZERO_SLICES");
    return v != nullptr && std::string(v) == "0";
  }();
  if (off) return;
  const auto count = static_cast<int32_t>(g.nodes.size());
  std::vector<int32_t> producer(g.values.size(), -1);
  std::vector<std::vector<int32_t>> readers(g.values.size());
  for (int32_t i = 0; i < count; ++i) {
    for (const ArgRef& r : g.nodes[i].results) producer[r.value] = i;
    for (const ArgRef& r : g.nodes[i].refs)
      if (readers[r.value].empty() || readers[r.value].back() != i) readers[r.value].push_back(i);
  }
  std::vector<bool> output(g.values.size(), false);
  for (int32_t o : g.outputs) output[o] = true;
  auto single = [&](const Node& n) { return n.results.size() == 1 && n.refs.size() >= 1; };
  // The zero buffer whose fill_ result is `z`, with its one slice copy; false when it is none.
  auto zero_buffer = [&](int32_t z, ZeroBuffer* b) {
    const int32_t f = producer[z];
    if (f < 0 || output[z]) return false;
    const Node& fill = g.nodes[f];
    if (!named(fill, "fill_") || !single(fill) || fill.refs.size() != 1 || fill.args.size() != 2 ||
        !is_zero(fill.args[1]))
      return false;
    const int32_t e = fill.refs[0].value;
    if (producer[e] < 0 || !named(g.nodes[producer[e]], "empty") || readers[e].size() != 1 ||
        output[e])
      return false;
    if (g.values[z].dtype != ScalarType::Float && g.values[z].dtype != ScalarType::Double)
      return false;
    // Readers: the select first (then, for the buffer added in, the add alone).
    if (readers[z].empty()) return false;
    const int32_t s = readers[z][0];
    const Node& sel = g.nodes[s];
    int64_t dim = 0, index = 0;
    if (!named(sel, "select") || !single(sel) || sel.refs.size() != 1 || !int_arg(sel, 1, &dim) ||
        !int_arg(sel, 2, &index))
      return false;
    const int32_t sv = sel.results[0].value;
    if (readers[sv].size() != 1 || output[sv]) return false;
    const Node& copy = g.nodes[readers[sv][0]];
    if (!named(copy, "copy_") || !single(copy) || copy.refs.size() != 2 ||
        copy.refs[0].value != sv || copy.refs[0].slot != 0 || copy.refs[1].slot != 1 ||
        !readers[copy.results[0].value].empty() || output[copy.results[0].value])
      return false;
    const int32_t src = copy.refs[1].value;
    const ValueInfo& si = g.values[src];
    if (si.sizes != g.values[sv].sizes || si.dtype != g.values[z].dtype) return false;
    *b = {producer[e], f, s, readers[sv][0], dim, src};
    return true;
  };
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<std::vector<Node>> replace(g.nodes.size());  // nodes run instead of node i
  std::vector<int32_t> alias(g.values.size(), -1);  // an add's result -> its buffer's fill value
  std::vector<std::vector<int32_t>> members(g.values.size());  // buffer -> its add results
  // Per accumulating buffer (fill value): the dim, the slices written, the nodes allowed to read
  // it.
  std::vector<std::set<int64_t>> written(g.values.size());
  std::vector<int64_t> written_dim(g.values.size(), -1);
  std::vector<std::set<int32_t>> allowed(g.values.size());
  for (int32_t i = 0; i < count; ++i) {
    Node& n = g.nodes[i];
    for (ArgRef& r : n.refs)
      if (alias[r.value] >= 0) r.value = alias[r.value];
    if (!named(n, "add") || !n.mutates || n.refs.size() != 3 || n.args.size() != 4 ||
        n.results.size() != 1 || n.refs[0].slot != 0 || n.refs[1].slot != 1 ||
        n.refs[2].slot != 3 || n.refs[2].value != n.refs[0].value || !n.args[2].is<Scalar>() ||
        n.args[2].get<Scalar>().to<double>() != 1.0)
      continue;
    const int32_t acc = n.refs[0].value, z = n.refs[1].value;
    ZeroBuffer a, b;
    if (!zero_buffer(acc, &a) || !zero_buffer(z, &b) || a.dim != b.dim ||
        g.values[acc].sizes != g.values[z].sizes || g.values[acc].dtype != g.values[z].dtype)
      continue;
    if (readers[z].size() != 2 || readers[z][1] != i) continue;  // z: its select and this add
    if (written[acc].empty()) {
      int64_t k = 0;
      int_arg(g.nodes[a.select], 2, &k);
      written[acc].insert(k);
      written_dim[acc] = a.dim;
      allowed[acc].insert(a.select);
    }
    int64_t k = 0;
    int_arg(g.nodes[b.select], 2, &k);
    if (written_dim[acc] != b.dim || written[acc].count(k)) continue;
    // Nothing but the buffer's own select and earlier merged adds has read it so far.
    bool alone = true;
    std::vector<int32_t> values = members[acc];
    values.push_back(acc);
    for (int32_t v : values)
      for (int32_t j : readers[v]) alone = alone && (j >= i || allowed[acc].count(j) > 0);
    // Nothing in between writes but fresh buffers that src is no view of.
    auto base = [&](int32_t v) {
      while (producer[v] >= 0 && g.nodes[producer[v]].is_view && !g.nodes[producer[v]].refs.empty())
        v = g.nodes[producer[v]].refs[0].value;
      return v;
    };
    bool clean = alone;
    for (int32_t j = b.copy + 1; j < i && clean; ++j) {
      const Node& m = g.nodes[j];
      if (!m.mutates || drop[j]) continue;
      const int32_t w = m.refs.empty() ? -1 : m.refs[0].value;
      const int32_t p = w < 0 ? -1 : producer[w];
      clean = (named(m, "fill_") || named(m, "copy_")) && p >= 0 &&
              (named(g.nodes[p], "empty") || named(g.nodes[p], "select")) && base(w) != base(b.src);
    }
    if (!clean) continue;
    written[acc].insert(k);
    allowed[acc].insert(i);
    // select(acc, d, k), then add_(slice, src) into it, where the add ran; z's nodes go.
    Node sel = clone(g.nodes[b.select]);
    sel.refs[0].value = acc;
    const int32_t slice = sel.results[0].value;
    Node add = clone(n);
    add.refs[0].value = slice;
    add.refs[1].value = b.src;
    add.refs[2].value = slice;
    add.results[0].value = g.nodes[b.copy].results[0].value;
    alias[n.results[0].value] = acc;
    members[acc].push_back(n.results[0].value);
    for (int32_t j : {b.empty, b.fill, b.select, b.copy}) drop[j] = true;
    replace[i].push_back(std::move(sel));
    replace[i].push_back(std::move(add));
  }
  for (int32_t& o : g.outputs)
    if (alias[o] >= 0) o = alias[o];
  std::vector<Node> kept;
  for (int32_t i = 0; i < count; ++i) {
    if (!replace[i].empty()) {
      for (Node& m : replace[i]) kept.push_back(std::move(m));
    } else if (!drop[i]) {
      kept.push_back(std::move(g.nodes[i]));
    }
  }
  g.nodes = std::move(kept);
}

}  // namespace brasa::compiler
