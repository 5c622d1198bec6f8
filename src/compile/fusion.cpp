#include "compile/fusion.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <unordered_set>

#include "brasa/core/error.h"
#include "compile/codegen.h"
#include "compile/in_place.h"
#include "compile/release.h"
#include "compile/row_fusion.h"

namespace brasa::compiler {

// Note [Fusion]
// A kernel is a maximal run of consecutive fusible nodes (trace order), so it runs exactly where
// its last node ran and reads every operand when eager would have: in-place ops and views, which
// are not fusible, end a run, except a view of a value the run does not compute (LayerNorm's
// `weight.view({C})` before its affine mul), which reads no data: it runs where it stands, before
// the kernel, and the run goes on (so the affine ops join the row kernel). A node is fusible when
// it is a float or double pointwise op of the table in codegen.cpp, writes nothing (or writes an
// operand nothing observes afterwards: Note [Functional in-place]), and its result has the run's
// shape (operands may broadcast); or, in a row group, a reduction over the last dim, a pointwise op
// over per-row values (Note [Row fusion]), or an `expand` of a per-row value to the row shape whose
// one reader is the next node (computed as the per-row value read along the row). Every operand is
// converted to the node's result dtype before the operation, as the eager kernels do after type
// promotion, and the generated code is compiled with -ffp-contract=off, so exact ops match eager
// bit for bit, and transcendentals call the SLEEF functions eager calls (Note [Generated math]). A
// run of one node stays eager.

// Note [Column reductions]
// A sum or mean over every dim but the last (a bias gradient: `grad.sum({0, 1})` of a [B, T, C]
// gradient) of a value of a pointwise group's shape, or of an input of that shape, joins the group
// (or starts one): the kernel computes the group's values row by row as usual and adds each
// reduced value into a partial row of the running thread; the partial rows are then added in
// thread order (so the result depends on the thread count only, not on timing). The summation
// order is not eager's: within 1e-5 of the sum of absolute values. A group may hold several such
// reductions (LayerNorm's backward: the bias gradient sums the incoming gradient, the weight
// gradient sums its product with the normalised input), and the pointwise ops after them go on
// in the same kernel as long as none reads a reduction's result; a group with a reduction over
// the last dim (a row kernel) takes none. The group's other outputs are stored as before, so a
// gradient that the backward needs both summed (the bias) and whole (the matmul) is read from
// memory once.

namespace {

struct Group {
  std::vector<int32_t> nodes;
  std::vector<int64_t> shape;
  bool rows = false;                          ///< holds a reduction over the last dim
  std::vector<int32_t> columns;               ///< sums/means over every dim but the last
  std::unordered_set<int32_t> column_values;  ///< their results: no node of the group reads them
  std::vector<int32_t> deferred;              ///< views of those results: run after the kernel
  std::unordered_set<int32_t> deferred_values;
  std::unordered_set<int32_t> values;   ///< results of the group's nodes
  std::unordered_set<int32_t> stats;    ///< per-row results (last dim 1)
  std::unordered_set<int32_t> dropped;  ///< per-row results without the last dim
  void clear() { *this = Group(); }
  void add(const Graph& g, int32_t i, bool stat, bool drop) {
    nodes.push_back(i);
    const int32_t v = g.nodes[i].results[0].value;
    values.insert(v);
    if (stat) stats.insert(v);
    if (drop) dropped.insert(v);
  }
};

std::vector<int64_t> stat_shape(std::vector<int64_t> shape) {
  if (!shape.empty()) shape.back() = 1;
  return shape;
}

/// Whether `n` is a sum or mean of a float/double value shaped `shape` (rank 2 or more) over every
/// dim but the last, with no dtype or out= argument (Note [Column reductions]).
bool column_reduction(const Graph& g, const Node& n, const std::vector<int64_t>& shape) {
  const std::string& name = n.op->name();
  if ((name != "sum" && name != "mean") || n.mutates || n.refs.size() != 1 ||
      n.results.size() != 1 || n.refs[0].slot != 0 || n.refs[0].element >= 0 || n.args.size() != 5)
    return false;
  const ValueInfo& in = g.values[n.refs[0].value];
  const ValueInfo& out = g.values[n.results[0].value];
  const auto rank = static_cast<int64_t>(shape.size());
  if (rank < 2 || in.sizes != shape || !in.cpu || in.dtype != out.dtype ||
      (in.dtype != ScalarType::Float && in.dtype != ScalarType::Double))
    return false;
  for (int64_t d : shape)  // an empty sum is eager's (sizes 0 are guarded: never dynamic)
    if (d == 0) return false;
  const Stack& a = n.args;
  if (!a[1].is<std::vector<int64_t>>() || !a[2].is<bool>()) return false;
  for (size_t i : {size_t{3}, size_t{4}})
    if (!(a[i].is_none() || (a[i].is_tensor() && !a[i].tensor().defined()))) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t d : a[1].get<std::vector<int64_t>>()) {
    const int64_t k = d < 0 ? d + rank : d;
    if (k < 0 || k >= rank - 1 || seen[k]) return false;
    seen[k] = true;
  }
  for (int64_t k = 0; k + 1 < rank; ++k)
    if (!seen[k]) return false;
  return true;
}

struct Builder {
  const Graph& g;
  std::vector<int> uses_after;  // per value: last node index reading it
  std::unordered_set<int32_t> graph_outputs;
  Plan plan;
  std::ostringstream src;
  std::vector<bool> functional;  // per node: an in-place op that may run out of place
  std::vector<int> uses;         // per value: its readers

  bool fusible(int32_t i) const { return functional[i] || fusible_pointwise(g, g.nodes[i]); }

  /// `expand` of a per-row value of a row group to the group's shape, read by the next node alone
  /// (a pointwise node of that shape) and by nothing else.
  bool row_expand(const Group& group, int32_t i) const {
    const Node& n = g.nodes[i];
    if (!group.rows || n.op->name() != "expand" || n.refs.size() != 1 || n.results.size() != 1 ||
        n.refs[0].element >= 0 || !group.stats.count(n.refs[0].value))
      return false;
    const int32_t v = n.results[0].value;
    if (g.values[v].sizes != group.shape || uses[v] != 1 || graph_outputs.count(v) ||
        i + 1 >= static_cast<int32_t>(g.nodes.size()) || !fusible(i + 1))
      return false;
    const Node& next = g.nodes[i + 1];
    bool reads = false;
    for (const ArgRef& r : next.refs) reads = reads || r.value == v;
    return reads && g.values[next.results[0].value].sizes == group.shape;
  }

  /// A view of a value `group` does not compute (Note [Fusion]): it runs before the kernel.
  bool outside_view(const Group& group, int32_t i) const {
    const Node& n = g.nodes[i];
    if (!n.is_view || n.mutates || n.refs.size() != 1 || n.results.size() != 1 ||
        n.refs[0].element >= 0)
      return false;
    const int32_t v = n.refs[0].value;
    return !group.values.count(v) && !group.deferred_values.count(v);
  }

  /// Whether node i joins `group` (updating it).
  bool join(Group& group, int32_t i) {
    const Node& n = g.nodes[i];
    if (n.is_view && !n.mutates && n.refs.size() == 1 && n.results.size() == 1 &&
        (group.column_values.count(n.refs[0].value) ||
         group.deferred_values.count(n.refs[0].value))) {
      group.deferred.push_back(i);  // `bias.view({C})`: runs after the kernel, which it waits for
      group.deferred_values.insert(n.results[0].value);
      return true;
    }
    for (const ArgRef& r : n.refs)
      if (group.dropped.count(r.value) || group.column_values.count(r.value) ||
          group.deferred_values.count(r.value))
        return false;
    if (!group.rows && column_reduction(g, n, group.shape)) {
      group.columns.push_back(i);
      group.column_values.insert(n.results[0].value);
      group.add(g, i, false, false);
      return true;
    }
    if (row_expand(group, i)) {
      group.add(g, i, false, false);
      return true;
    }
    if (fusible(i)) {
      const auto& sizes = g.values[n.results[0].value].sizes;
      if (sizes == group.shape) {
        group.add(g, i, false, false);
        return true;
      }
      if (!group.rows || sizes != stat_shape(group.shape)) return false;
      for (const ArgRef& r : n.refs) {
        const bool inside = group.values.count(r.value) > 0;
        if (inside ? !group.stats.count(r.value) : !row_constant(g.values[r.value], group.shape))
          return false;
      }
      group.add(g, i, true, false);
      return true;
    }
    const RowReduction kind = row_reduction(g, n);
    if (kind == RowReduction::None || !group.columns.empty()) return false;
    const int32_t x = n.refs[0].value;
    if (g.values[x].sizes != group.shape || group.shape.back() < 2 || group.stats.count(x))
      return false;
    group.rows = true;
    const auto rank = g.values[n.results[0].value].sizes.size();
    const bool per_row = kind != RowReduction::Softmax && kind != RowReduction::LogSoftmax;
    group.add(g, i, per_row, per_row && rank < group.shape.size());
    return true;
  }

  /// Starts `group` with node i when it can start one.
  bool start(Group& group, int32_t i) {
    const Node& n = g.nodes[i];
    if (fusible(i)) {
      group.shape = g.values[n.results[0].value].sizes;
      group.add(g, i, false, false);
      return true;
    }
    if (!n.refs.empty() && column_reduction(g, n, g.values[n.refs[0].value].sizes)) {
      group.shape = g.values[n.refs[0].value].sizes;
      return join(group, i);
    }
    if (row_reduction(g, n) == RowReduction::None) return false;
    group.shape = g.values[n.refs[0].value].sizes;
    if (group.shape.back() < 2) return false;
    return join(group, i);
  }

  /// The pointwise nodes after `group`'s last column reduction, taken out of it (a row reduction
  /// that reads them follows: they are better computed in its row kernel than stored here).
  std::vector<int32_t> take_tail(Group& group) const {
    std::vector<int32_t> tail;
    if (group.columns.empty()) return tail;
    const int32_t last = group.columns.back();
    while (!group.nodes.empty() && group.nodes.back() > last) {
      tail.insert(tail.begin(), group.nodes.back());
      group.values.erase(g.nodes[group.nodes.back()].results[0].value);
      group.nodes.pop_back();
    }
    return tail;
  }

  bool needed(int32_t v, int32_t last) const {
    return graph_outputs.count(v) || uses_after[v] > last;
  }

  void emit(const Group& group) {
    if (group.nodes.size() < 2) {
      std::vector<int32_t> all = group.nodes;
      all.insert(all.end(), group.deferred.begin(), group.deferred.end());
      std::sort(all.begin(), all.end());
      for (int32_t i : all) plan.steps.push_back({i, -1});
      return;
    }
    Kernel k;
    k.symbol = "brasa_kernel_" + std::to_string(plan.kernels.size());
    const int32_t last = group.nodes.back();
    if (group.rows) {
      generate_row_kernel(
          g, group.nodes, group.shape, [&](int32_t v) { return needed(v, last); }, k, src);
    } else {
      pointwise_kernel(k, group.nodes, group.shape, group.columns);
    }
    plan.steps.push_back({-1, static_cast<int32_t>(plan.kernels.size())});
    plan.kernels.push_back(std::move(k));
    for (int32_t i : group.deferred) plan.steps.push_back({i, -1});
  }

  void pointwise_kernel(Kernel& k, const std::vector<int32_t>& run,
                        const std::vector<int64_t>& shape, const std::vector<int32_t>& columns) {
    k.rank = std::max<int>(1, static_cast<int>(shape.size()));
    std::unordered_set<int32_t> inside;
    for (int32_t i : run) inside.insert(g.nodes[i].results[0].value);
    std::ostringstream body;
    auto operand = [&](int32_t v) -> std::string {
      if (inside.count(v)) return "v" + std::to_string(v);
      for (size_t j = 0; j < k.inputs.size(); ++j)
        if (k.inputs[j] == v) return "x" + std::to_string(j);
      k.inputs.push_back(v);
      int64_t numel = 1;
      for (int64_t s : g.values[v].sizes) numel *= s;
      k.scalar_inputs.push_back(numel == 1);
      return "x" + std::to_string(k.inputs.size() - 1);
    };
    std::vector<std::string> summed;  // the column reductions' operands
    for (int32_t i : run) {
      const Node& n = g.nodes[i];
      const int32_t v = n.results[0].value;
      if (std::find(columns.begin(), columns.end(), i) != columns.end()) {
        summed.push_back(operand(n.refs[0].value));
        k.ops.push_back(n.op->name());
        continue;
      }
      const std::string a = operand(n.refs[0].value);
      const std::string b = n.refs.size() > 1 ? operand(n.refs[1].value) : "";
      body << "      " << pointwise_statement(g, n, "v" + std::to_string(v), a, b) << "\n";
      k.ops.push_back(n.op->name());
      if (needed(v, run.back())) {
        k.outputs.push_back(v);
        k.output_dtypes.push_back(g.values[v].dtype);
        k.output_orders.push_back(layout_order(g.values[v]));
      }
    }
    if (columns.empty()) {
      generate(k, run, body.str());
      return;
    }
    // The reductions' results are the last outputs: one value per column each (Note [Column
    // reductions]).
    k.output_stat.assign(k.outputs.size(), 0);
    std::vector<bool> mean;
    for (int32_t c : columns) {
      const Node& r = g.nodes[c];
      const int32_t v = r.results[0].value;
      k.outputs.push_back(v);
      k.output_dtypes.push_back(g.values[v].dtype);
      k.output_orders.emplace_back();
      k.output_stat.push_back(g.values[v].sizes.size() == shape.size() ? 3 : 4);
      mean.push_back(r.op->name() == "mean");
    }
    generate_columns(k, run, body.str(), summed, mean);
  }

  /// A pointwise kernel whose last outputs sum `summed[c]` over every dim but the last: rows
  /// split over the threads, each adding into its own partial rows, then the partial rows added in
  /// thread order (Note [Column reductions]).
  void generate_columns(const Kernel& k, const std::vector<int32_t>& run, const std::string& body,
                        const std::vector<std::string>& summed, const std::vector<bool>& mean) {
    const size_t nc = summed.size(), no = k.outputs.size() - nc;
    src << "extern \"C\" int omp_get_max_threads(void);\nextern \"C\" int "
           "omp_get_thread_num(void);\n";
    emit_kernel_header(g, k, src);
    src << "  const int nt = n >= 65536 ? omp_get_max_threads() : 1;\n";
    for (size_t c = 0; c < nc; ++c) {
      const char* T = c_type(k.output_dtypes[no + c]);
      src << "  " << T << "* part" << c << " = (" << T << "*)malloc(sizeof(" << T
          << ") * sizes[R - 1] * nt);\n"
          << "  for (i64 j = 0; j < sizes[R - 1] * nt; ++j) part" << c << "[j] = 0;\n";
    }
    row_loop(k);
    for (size_t c = 0; c < nc; ++c)
      src << "    " << c_type(k.output_dtypes[no + c]) << "* __restrict acc" << c << " = part" << c
          << " + (i64)omp_get_thread_num() * inner;\n";
    src << "    if (" << unit_test(k, no) << ") {\n";
    for (Mode mode : {kUnit, kStrided}) {
      src << simd(mode) << "    for (i64 j = 0; j < inner; ++j) {\n"
          << decls(k, run, mode) << body << stores(k, mode, no);
      for (size_t c = 0; c < nc; ++c) src << "      acc" << c << "[j] += " << summed[c] << ";\n";
      src << "    }\n" << (mode == kUnit ? "    } else {\n" : "    }\n");
    }
    src << "  }\n";
    for (size_t c = 0; c < nc; ++c) {
      const std::string T = c_type(k.output_dtypes[no + c]);
      src << "  for (i64 j = 0; j < sizes[R - 1]; ++j) {\n    " << T << " s = 0;\n"
          << "    for (int t = 0; t < nt; ++t) s += part" << c << "[t * sizes[R - 1] + j];\n"
          << "    q" << no + c << "[j] = " << (mean[c] ? "s / (" + T + ")(n / sizes[R - 1])" : "s")
          << ";\n  }\n  free(part" << c << ");\n";
    }
    src << "}\n\n";
  }

  void generate(const Kernel& k, const std::vector<int32_t>& run, const std::string& body) {
    emit_kernel_header(g, k, src);
    src << "  if (flat) {\n#pragma omp parallel for simd schedule(static) if (n >= 65536)\n"
        << "    for (i64 i = 0; i < n; ++i) {\n"
        << decls(k, run, kFlat) << body << stores(k, kFlat) << "    }\n    return;\n  }\n";
    row_loop(k);
    src << "    if (" << unit_test(k) << ") {\n";
    for (Mode mode : {kUnit, kStrided}) {
      src << simd(mode) << "    for (i64 j = 0; j < inner; ++j) {\n"
          << decls(k, run, mode) << body << stores(k, mode) << "    }\n"
          << (mode == kUnit ? "    } else {\n" : "    }\n");
    }
    src << "  }\n}\n\n";
  }

  /// Opens `for (row)` over all dims but the last, with o<b>/s<b> the row's offset and inner
  /// stride of every buffer.
  void row_loop(const Kernel& k) {
    const size_t nb = k.inputs.size() + k.outputs.size();
    src << "  const i64 inner = sizes[R - 1], outer = n / inner;\n"
        << "#pragma omp parallel for schedule(static) if (n >= 65536)\n"
        << "  for (i64 row = 0; row < outer; ++row) {\n";
    for (size_t b = 0; b < nb; ++b)
      src << "    i64 o" << b << " = 0; const i64 s" << b << " = strides[" << b
          << " * R + R - 1];\n";
    src << "    for (i64 rem = row, d = R - 2; d >= 0; --d) {\n"
        << "      const i64 idx = rem % sizes[d];\n      rem /= sizes[d];\n";
    for (size_t b = 0; b < nb; ++b)
      src << "      o" << b << " += idx * strides[" << b << " * R + d];\n";
    src << "    }\n";
  }

  /// Index forms: kFlat (i over the whole shape), kStrided (row offset + j * inner stride),
  /// kUnit (row offset + j, or the row offset alone for single-element inputs).
  enum Mode { kFlat, kStrided, kUnit };

  static std::string index(const Kernel& k, size_t b, Mode mode) {
    const std::string o = "o" + std::to_string(b);
    const bool scalar = b < k.inputs.size() && k.scalar_inputs[b];
    switch (mode) {
      case kFlat: return scalar ? "0" : "i";
      case kUnit: return scalar ? o : o + " + j";
      default: return o + " + j * s" + std::to_string(b);
    }
  }

  // Note [Compile time]: only the flat and unit-stride loops are vectorised (`omp simd`); the
  // general strided loop (transposed or sliced operands) stays scalar, and the code is built at
  // -O2, which vectorises `omp simd` loops only. -O3 vectorised every variant and their
  // epilogues: 4x the compiler time (0.58 s vs 0.14 s of CPU for the 20-op chain).
  static const char* simd(Mode mode) { return mode == kStrided ? "" : "#pragma omp simd\n"; }

  /// The run-time test for kUnit: unit inner strides (0 for single-element inputs).
  static std::string unit_test(const Kernel& k, size_t outputs = SIZE_MAX) {
    std::string t = "true";
    for (size_t b = 0; b < k.inputs.size() + std::min(outputs, k.outputs.size()); ++b)
      t += " && s" + std::to_string(b) +
           (b < k.inputs.size() && k.scalar_inputs[b] ? " == 0" : " == 1");
    return t;
  }

  std::string decls(const Kernel& k, const std::vector<int32_t>& run, Mode mode) {
    std::ostringstream os;
    for (int32_t i : run) {
      const int32_t v = g.nodes[i].results[0].value;
      os << "      " << c_type(g.values[v].dtype) << " v" << v << ";\n";
    }
    for (size_t j = 0; j < k.inputs.size(); ++j)
      os << "      const " << c_type(g.values[k.inputs[j]].dtype) << " x" << j << " = p" << j << "["
         << index(k, j, mode) << "];\n";
    return os.str();
  }

  std::string stores(const Kernel& k, Mode mode, size_t outputs = SIZE_MAX) {
    std::ostringstream os;
    const size_t ni = k.inputs.size();
    for (size_t j = 0; j < std::min(outputs, k.outputs.size()); ++j)
      os << "      q" << j << "[" << index(k, ni + j, mode) << "] = v" << k.outputs[j] << ";\n";
    return os.str();
  }
};

}  // namespace

Plan plan(const Graph& g, bool fuse) {
  Builder b{g,
            std::vector<int>(g.values.size(), -1),
            {g.outputs.begin(), g.outputs.end()},
            {},
            {},
            functional_in_place(g),
            std::vector<int>(g.values.size(), 0)};
  for (const Node& n : g.nodes)
    for (const ArgRef& r : n.refs) ++b.uses[r.value];
  // Nodes a matmul or attention step stands for run where its last node ran (Note [Matmul
  // epilogues], AttentionSlices): at[i] is where node i runs, step_at[i] the step run there.
  if (fuse) b.plan.matmuls = find_matmul_epilogues(g);
  if (fuse) b.plan.attentions = find_attention_slices(g);
  if (fuse) b.plan.pool_relus = find_pool_relus(g);
  if (fuse) b.plan.head_merges = find_head_merges(g);
  std::vector<int32_t> at(g.nodes.size(), -1);
  std::vector<Step> step_at(g.nodes.size());
  for (size_t q = 0; q < b.plan.matmuls.size(); ++q) {
    const MatmulEpilogue& e = b.plan.matmuls[q];
    for (int32_t i : e.nodes) at[i] = e.last_node;
    step_at[e.last_node].matmul = static_cast<int32_t>(q);
  }
  for (size_t q = 0; q < b.plan.attentions.size(); ++q) {
    const AttentionSlices& a = b.plan.attentions[q];
    for (int32_t i : {a.node, a.copies[0], a.copies[1], a.copies[2]}) at[i] = a.last_node;
    step_at[a.last_node].attention = static_cast<int32_t>(q);
  }
  for (size_t q = 0; q < b.plan.pool_relus.size(); ++q) {
    const PoolRelu& p = b.plan.pool_relus[q];
    at[p.pool] = at[p.relu] = p.relu;
    step_at[p.relu].pool_relu = static_cast<int32_t>(q);
  }
  for (size_t q = 0; q < b.plan.head_merges.size(); ++q)
    for (int32_t i : {b.plan.head_merges[q].attention, b.plan.head_merges[q].copy}) {
      at[i] = i;
      step_at[i].node = i;
      step_at[i].head_merge = static_cast<int32_t>(q);
    }
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const ArgRef& r : g.nodes[i].refs)
      b.uses_after[r.value] = std::max(b.uses_after[r.value], at[i] < 0 ? int(i) : at[i]);
  b.src << "// Generated by brasa's compile step (docs/compile.md); one kernel per fused run.\n"
        << generated_preamble();
  Group group;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const auto n = static_cast<int32_t>(i);
    if (at[i] >= 0) {
      if (at[i] == n) {
        b.emit(group);
        group.clear();
        b.plan.steps.push_back(step_at[i]);
      }
      continue;
    }
    if (fuse && !group.nodes.empty() && b.join(group, n)) continue;
    if (fuse && !group.nodes.empty() && b.outside_view(group, n)) {
      b.plan.steps.push_back({n, -1});
      continue;
    }
    // A column group ended by a row reduction: its pointwise tail starts the row group instead.
    const std::vector<int32_t> tail = fuse && row_reduction(g, g.nodes[i]) != RowReduction::None
                                          ? b.take_tail(group)
                                          : std::vector<int32_t>{};
    b.emit(group);
    group.clear();
    if (!tail.empty()) {
      bool joined = b.start(group, tail[0]);
      for (size_t t = 1; t < tail.size(); ++t) joined = joined && b.join(group, tail[t]);
      BRASA_INTERNAL_ASSERT(joined, "compile: a column group's tail did not fuse again");
      if (b.join(group, n)) continue;
      b.emit(group);
      group.clear();
    }
    if (fuse && b.start(group, n)) continue;
    group.clear();
    b.plan.steps.push_back({n, -1});
  }
  b.emit(group);
  if (!b.plan.kernels.empty()) b.plan.source = b.src.str();
  b.plan.releases = release_points(g, b.plan);
  return std::move(b.plan);
}

}  // namespace brasa::compiler
