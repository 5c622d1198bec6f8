#include "compile/zero_slices.h"

#include <algorithm>
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

// Whether the environment variable `var` is "0" (a rewrite turned off, for comparisons).
bool switched_off(const char* var) {
  const char* v = std::getenv(var);
  return v != nullptr && std::string(v) == "0";
}

// g's nodes with node i replaced by replace[i] where that is not empty, or dropped where drop[i].
void rebuild(Graph& g, const std::vector<bool>& drop, std::vector<std::vector<Node>>& replace) {
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!replace[i].empty()) {
      for (Node& m : replace[i]) kept.push_back(std::move(m));
    } else if (!drop[i]) {
      kept.push_back(std::move(g.nodes[i]));
    }
  }
  g.nodes = std::move(kept);
}

}  // namespace

void merge_zero_slices(Graph& g) {
  static const bool off = switched_off("BRASA_COMPILE_ZERO_SLICES");
  if (off) return;
  const auto count = static_cast<int32_t>(g.nodes.size());
  const Uses uses(g);
  const auto& [producer, readers, output] = uses;
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
  rebuild(g, drop, replace);
}

// Note [Slices written in place]
// After the merge above, the QKV split's backward is one buffer `z = empty(s).fill_(0)` whose
// slices z.select(d, k) each receive one gradient (a copy_, or an add into the zero), then
// `z.permute(p)` copied into a fresh `f = empty(s permuted)` (the `reshape` of the permuted
// gradient): a fill and a copy of the whole buffer. When every slice along d is written once, z
// is read by nothing else and f by nothing but that copy, f is allocated where z was, z becomes
// the view f.permute(p^-1) and each slice is copied there: the same values in the same places
// (the adds into zero become copies: only the sign of a zero may differ, as above), with no fill
// and no final copy. BRASA_COMPILE_SLICES_IN_PLACE=0 turns it off (for comparisons).
void write_slices_in_place(Graph& g) {
  static const bool off = switched_off("BRASA_COMPILE_SLICES_IN_PLACE");
  if (off) return;
  const auto count = static_cast<int32_t>(g.nodes.size());
  const Uses uses(g);
  const auto& [producer, readers, output] = uses;
  auto fresh = [&](int32_t v, int32_t reader) {  // an `empty` result read by `reader` alone
    const int32_t e = producer[v];
    return e >= 0 && named(g.nodes[e], "empty") && g.nodes[e].results.size() == 1 && !output[v] &&
           readers[v].size() == 1 && readers[v][0] == reader;
  };
  auto unread = [&](const Node& n) {
    return n.results.size() == 1 && readers[n.results[0].value].empty() &&
           !output[n.results[0].value];
  };
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<std::vector<Node>> replace(g.nodes.size());
  std::vector<int32_t> rename(g.values.size(), -1);
  for (int32_t pi = 0; pi < count; ++pi) {
    const Node& perm = g.nodes[pi];
    if (!named(perm, "permute") || perm.results.size() != 1 || perm.refs.size() != 1 ||
        perm.refs[0].slot != 0 || perm.args.size() != 2 || !perm.args[1].is<std::vector<int64_t>>())
      continue;
    const int32_t z = perm.refs[0].value, pv = perm.results[0].value;
    const int32_t fi = producer[z];
    if (fi < 0 || output[z] || output[pv] || readers[pv].size() != 1) continue;
    const Node& fill = g.nodes[fi];
    if (!named(fill, "fill_") || fill.refs.size() != 1 || fill.results.size() != 1 ||
        fill.args.size() != 2 || !is_zero(fill.args[1]) || !fresh(fill.refs[0].value, fi))
      continue;
    // The final copy into a fresh buffer of the permuted shape.
    const int32_t ci = readers[pv][0];
    const Node& copy = g.nodes[ci];
    if (!named(copy, "copy_") || copy.refs.size() != 2 || copy.refs[0].slot != 0 ||
        copy.refs[1].slot != 1 || copy.refs[1].value != pv || copy.results.size() != 1)
      continue;
    const int32_t fv = copy.refs[0].value;
    if (!fresh(fv, ci) || g.values[fv].sizes != g.values[pv].sizes ||
        g.values[fv].dtype != g.values[z].dtype)
      continue;
    // z's other readers: one select per index along one dim, each written once before the permute.
    const std::vector<int64_t>& dims = perm.args[1].get<std::vector<int64_t>>();
    const std::vector<int64_t>& zs = g.values[z].sizes;
    if (dims.size() != zs.size()) continue;
    int64_t dim = -1;
    std::vector<int32_t> writer;  // per slice index: the node writing it
    bool ok = true;
    for (int32_t si : readers[z]) {
      if (si == pi) continue;
      const Node& sel = g.nodes[si];
      int64_t d = 0, k = 0;
      ok = ok && si < pi && named(sel, "select") && sel.refs.size() == 1 &&
           sel.results.size() == 1 && int_arg(sel, 1, &d) && int_arg(sel, 2, &k) && d >= 0 &&
           d < int64_t(zs.size()) && (dim < 0 || d == dim);
      if (!ok) break;
      dim = d;
      if (writer.empty()) writer.assign(size_t(zs[size_t(d)]), -1);
      const int32_t sv = sel.results[0].value;
      ok = k >= 0 && k < int64_t(writer.size()) && writer[size_t(k)] < 0 && !output[sv] &&
           readers[sv].size() == 1;
      if (!ok) break;
      const int32_t wi = readers[sv][0];
      const Node& w = g.nodes[wi];
      const bool is_copy = named(w, "copy_") && w.refs.size() == 2 && w.refs[0].slot == 0 &&
                           w.refs[0].value == sv && w.refs[1].slot == 1;
      const bool is_add = named(w, "add") && w.mutates && w.refs.size() == 3 &&
                          w.args.size() == 4 && w.refs[0].slot == 0 && w.refs[0].value == sv &&
                          w.refs[1].slot == 1 && w.refs[2].slot == 3 && w.refs[2].value == sv &&
                          w.args[2].is<Scalar>() && w.args[2].get<Scalar>().to<double>() == 1.0;
      ok = (is_copy || is_add) && wi < pi && unread(w) &&
           g.values[w.refs[1].value].sizes == g.values[sv].sizes &&
           g.values[w.refs[1].value].dtype == g.values[z].dtype;
      if (ok) writer[size_t(k)] = wi;
    }
    ok = ok && !writer.empty() &&
         std::all_of(writer.begin(), writer.end(), [](int32_t w) { return w >= 0; });
    if (!ok) continue;
    // f = empty(...) where z's empty was, z = f.permute(inverse), the writes as copies.
    const int32_t fe = producer[fv], ze = producer[fill.refs[0].value];
    std::vector<int64_t> inverse(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) inverse[size_t(dims[i])] = int64_t(i);
    Node view = clone(perm);
    view.args[1] = Value(inverse);
    view.refs[0].value = fv;
    view.results[0].value = z;
    replace[ze].push_back(clone(g.nodes[fe]));
    replace[ze].push_back(std::move(view));
    for (int32_t wi : writer) {
      if (named(g.nodes[wi], "copy_")) continue;
      Node c = clone(copy);
      c.refs[0].value = g.nodes[wi].refs[0].value;
      c.refs[1].value = g.nodes[wi].refs[1].value;
      c.results[0].value = g.nodes[wi].results[0].value;
      replace[wi].push_back(std::move(c));
    }
    for (int32_t j : {fi, pi, ci, fe}) drop[j] = true;
    rename[copy.results[0].value] = fv;
    // z and its slices now have f's layout, permuted.
    std::vector<int64_t> fstrides(g.values[fv].sizes.size());
    int64_t st = 1;
    for (size_t i = fstrides.size(); i-- > 0;) {
      fstrides[i] = st;
      st *= g.values[fv].sizes[i];
    }
    std::vector<int64_t> zstrides(dims.size());
    for (size_t j = 0; j < dims.size(); ++j) zstrides[j] = fstrides[size_t(inverse[j])];
    g.values[z].strides = zstrides;
    g.values[z].contiguous = false;
    zstrides.erase(zstrides.begin() + dim);
    for (int32_t si : readers[z])
      if (si != pi) {
        ValueInfo& sv = g.values[g.nodes[si].results[0].value];
        sv.strides = zstrides;
        sv.contiguous = false;
      }
  }
  for (int32_t& o : g.outputs)
    if (rename[o] >= 0) o = rename[o];
  rebuild(g, drop, replace);
  for (Node& n : g.nodes)
    for (ArgRef& r : n.refs)
      if (rename[r.value] >= 0) r.value = rename[r.value];
}

}  // namespace brasa::compiler
