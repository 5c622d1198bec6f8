#include "compile/row_fusion.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "compile/codegen.h"

namespace brasa::compiler {

// Note [Row fusion]
// A row group is a run of consecutive nodes over one iteration shape S (last dim N >= 2) that
// holds at least one reduction over the last dim: pointwise nodes whose result has shape S (row
// values), pointwise nodes over per-row scalars (stat values, shape S with N -> 1: `var + eps`,
// `rsqrt`), and sum / mean / amax / var (keepdim or not) / softmax / log_softmax over the last dim.
// The group becomes a small program per row: mean is a sum then a division by N, var a mean then
// a sum of squared differences, softmax a max, a sum of exp(x - max) and a product with its
// reciprocal, log_softmax x - (max + log(sum)), as eager's kernels compute them.
//
// Reductions are grouped into passes over the row: a reduction runs in the first pass after every
// stat its operand needs. Each pass recomputes the row values it needs from the inputs, except
// values a later pass also needs, which the first pass that computes them keeps in a per-thread
// scratch row (one row in cache: softmax's prologue, layer_norm's x - mean). A materialised row
// value is stored in the first pass that computes it; the others in a final pass. A stat is
// computed once per row, between passes. Rows are split over OpenMP threads; within a pass the
// unit-stride variant is `omp simd` (reductions included: their summation order is eager's up to
// reassociation, so results agree within about 1e-6 relative, the tests' 1e-5).

namespace {

/// An optional argument left out (None, or an undefined tensor for `out`).
bool absent(const Value& v) { return v.is_none() || (v.is_tensor() && !v.tensor().defined()); }

bool last_dim_only(const Value& dims, int64_t rank) {
  if (!dims.is<std::vector<int64_t>>()) return false;
  const auto& d = dims.get<std::vector<int64_t>>();
  return d.size() == 1 && (d[0] == -1 || d[0] == rank - 1);
}

/// One value of a row program: a kernel input, a pointwise result, or a reduction.
struct RV {
  std::string name;
  bool row = false;  // varies along the row
  ScalarType dtype = ScalarType::Float;
  std::vector<int> deps;  // RV indices
  std::string stmt;       // pointwise: computes `name` from the deps' names
  int reduce = 0;         // 1 sum, 2 max (of deps[0])
  int input = -1;         // kernel input index
  int pass = 0;           // reductions: the pass computing it; row values: the first pass possible
  int ready = 0;          // stats: available before pass `ready`
  int output = -1;        // kernel output index, or -1
};

struct RowProgram {
  const Graph& g;
  const std::vector<int64_t>& shape;
  Kernel& k;
  std::vector<RV> rvs;
  std::map<int32_t, int> of_value;  // graph value -> RV
  int temps = 0;

  int input(int32_t v) {
    auto it = of_value.find(v);
    if (it != of_value.end()) return it->second;
    RV r;
    r.input = static_cast<int>(k.inputs.size());
    r.name = "x" + std::to_string(r.input);
    r.row = !row_constant(g.values[v], shape);
    r.dtype = g.values[v].dtype;
    k.inputs.push_back(v);
    k.scalar_inputs.push_back(!r.row);  // row kernels read these once per row
    rvs.push_back(r);
    return of_value[v] = static_cast<int>(rvs.size() - 1);
  }
  int add(RV r) {
    for (int d : r.deps) r.row = r.row || rvs[d].row;
    if (r.name.empty()) r.name = "t" + std::to_string(temps++);
    rvs.push_back(std::move(r));
    return static_cast<int>(rvs.size() - 1);
  }
  /// A pointwise RV from an expression over `a` (and `b`) in the type T of `dtype`.
  int pw(const std::string& expr, ScalarType dtype, int a, int b = -1, std::string name = "") {
    RV r;
    r.name = std::move(name);
    r.dtype = dtype;
    r.deps = {a};
    if (b >= 0) r.deps.push_back(b);
    const int i = add(std::move(r));
    RV& x = rvs[i];
    x.stmt = std::string("{ typedef ") + c_type(dtype) + " T; const T a = (T)" + rvs[a].name + ";" +
             (b >= 0 ? " const T b = (T)" + rvs[b].name + ";" : std::string()) + " " + x.name +
             " = " + typed_expression(expr, dtype) + "; }";
    return i;
  }
  int reduction(int kind, int operand, ScalarType dtype, std::string name = "") {
    RV r;
    r.name = std::move(name);
    r.dtype = dtype;
    r.deps = {operand};
    r.reduce = kind;
    const int i = add(std::move(r));
    rvs[i].row = false;
    return i;
  }

  void add_node(const Node& n) {
    const int32_t result = n.results[0].value;
    const ScalarType t = g.values[result].dtype;
    const std::string name = "v" + std::to_string(result);
    const RowReduction kind = row_reduction(g, n);
    if (n.op->name() == "expand") {  // a per-row value along the row (fusion.cpp's row_expand)
      const int a = input(n.refs[0].value);
      const int e = pw("a", t, a, -1, name);
      rvs[e].row = true;
      of_value[result] = e;
      return;
    }
    if (kind == RowReduction::None) {
      const int a = input(n.refs[0].value);
      const int b = n.refs.size() > 1 ? input(n.refs[1].value) : -1;
      RV r;
      r.name = name;
      r.dtype = t;
      r.deps = {a};
      if (b >= 0) r.deps.push_back(b);
      r.stmt = pointwise_statement(g, n, name, rvs[a].name, b >= 0 ? rvs[b].name : "");
      of_value[result] = add(std::move(r));
      return;
    }
    const int x = input(n.refs[0].value);
    int out = -1;
    switch (kind) {
      case RowReduction::Sum: out = reduction(1, x, t, name); break;
      case RowReduction::Amax: out = reduction(2, x, t, name); break;
      case RowReduction::Mean: out = pw("a / (T)inner", t, reduction(1, x, t), -1, name); break;
      case RowReduction::Var: {
        const int mean = pw("a / (T)inner", t, reduction(1, x, t));
        const int d = pw("a - b", t, x, mean);
        const int sq = reduction(1, pw("a * a", t, d), t);
        const int64_t correction = n.args[2].get<int64_t>();
        out = pw("a / (T)(inner > " + std::to_string(correction) + " ? inner - " +
                     std::to_string(correction) + " : 0)",
                 t, sq, -1, name);
        break;
      }
      case RowReduction::Softmax:
      case RowReduction::LogSoftmax: {
        const int mx = reduction(2, x, t);
        const int e = pw("brasa_expF(a - b)", t, x, mx);
        const int sum = reduction(1, e, t);
        if (kind == RowReduction::Softmax) {
          out = pw("a * b", t, e, pw("(T)1 / a", t, sum), name);
        } else {
          out = pw("a - b", t, x, pw("a + brasa_logF(b)", t, mx, sum), name);
        }
        break;
      }
      default: break;
    }
    of_value[result] = out;
  }

  /// Passes: a reduction runs in the first pass after the stats its operand needs.
  int schedule() {
    int passes = 0;
    for (RV& r : rvs) {
      if (r.input >= 0) continue;
      int need = 0;
      for (int d : r.deps) need = std::max(need, rvs[d].row ? rvs[d].pass : rvs[d].ready);
      if (r.reduce) {
        r.pass = need;
        r.ready = need + 1;
        passes = std::max(passes, need + 1);
      } else if (r.row) {
        r.pass = need;
      } else {
        r.ready = need;
      }
    }
    return passes;
  }

  /// The row values (not inputs) needed to compute `targets`, stopping at `stop` (loaded from
  /// scratch); `hits` gets the stop values reached, `inputs` the row inputs read.
  std::vector<int> closure(const std::vector<int>& targets, const std::set<int>& stop,
                           std::set<int>* hits, std::set<int>* inputs) const {
    std::set<int> seen;
    std::vector<int> todo(targets.begin(), targets.end());
    while (!todo.empty()) {
      const int i = todo.back();
      todo.pop_back();
      const RV& r = rvs[i];
      if (!r.row || seen.count(i)) continue;
      if (r.input >= 0) {
        if (inputs) inputs->insert(i);
        continue;
      }
      if (stop.count(i)) {
        if (hits) hits->insert(i);
        continue;
      }
      seen.insert(i);
      for (int d : r.deps) todo.push_back(d);
    }
    return {seen.begin(), seen.end()};  // RV order is topological
  }
};

std::string index(const RowProgram& p, int b, bool unit) {
  const std::string o = "o" + std::to_string(b);
  if (b < static_cast<int>(p.k.inputs.size()) && p.k.scalar_inputs[b]) return o;
  return unit ? o + " + j" : o + " + j * s" + std::to_string(b);
}

}  // namespace

RowReduction row_reduction(const Graph& g, const Node& n) {
  if (n.mutates || n.refs.size() != 1 || n.results.size() != 1 || n.refs[0].slot != 0 ||
      n.refs[0].element >= 0)
    return RowReduction::None;
  const ValueInfo& in = g.values[n.refs[0].value];
  const ValueInfo& out = g.values[n.results[0].value];
  const auto rank = static_cast<int64_t>(in.sizes.size());
  if (rank == 0 || !in.cpu || in.dtype != out.dtype ||
      (in.dtype != ScalarType::Float && in.dtype != ScalarType::Double))
    return RowReduction::None;
  const std::string& name = n.op->name();
  const Stack& a = n.args;
  if ((name == "sum" || name == "mean") && a.size() == 5 && last_dim_only(a[1], rank) &&
      a[2].is<bool>() && absent(a[3]) && absent(a[4]))
    return name == "sum" ? RowReduction::Sum : RowReduction::Mean;
  if (name == "amax" && a.size() == 4 && last_dim_only(a[1], rank) && a[2].is<bool>() &&
      absent(a[3]))
    return RowReduction::Amax;
  if (name == "var" && a.size() == 4 && last_dim_only(a[1], rank) && a[2].is<int64_t>() &&
      a[3].is<bool>() && a[2].get<int64_t>() >= 0)
    return RowReduction::Var;
  if ((name == "softmax" || name == "log_softmax") && a.size() == 3 && a[1].is<int64_t>() &&
      (a[1].get<int64_t>() == -1 || a[1].get<int64_t>() == rank - 1) && absent(a[2]))
    return name == "softmax" ? RowReduction::Softmax : RowReduction::LogSoftmax;
  return RowReduction::None;
}

bool row_constant(const ValueInfo& v, const std::vector<int64_t>& shape) {
  int64_t numel = 1;
  for (int64_t s : v.sizes) numel *= s;
  return numel == 1 || v.sizes.empty() || v.sizes.back() == 1 || shape.empty();
}

void generate_row_kernel(const Graph& g, const std::vector<int32_t>& nodes,
                         const std::vector<int64_t>& shape,
                         const std::function<bool(int32_t)>& needed, Kernel& k, std::ostream& src) {
  RowProgram p{g, shape, k, {}, {}, 0};
  k.rank = static_cast<int>(shape.size());
  k.rows = true;
  for (int32_t i : nodes) {
    p.add_node(g.nodes[i]);
    k.ops.push_back(g.nodes[i].op->name());
  }
  const int passes = p.schedule();
  // Materialised results, in node order.
  std::vector<int> row_outputs, stat_outputs;
  for (int32_t i : nodes) {
    const int32_t v = g.nodes[i].results[0].value;
    if (!needed(v)) continue;
    RV& r = p.rvs[p.of_value.at(v)];
    r.output = static_cast<int>(k.outputs.size());
    k.outputs.push_back(v);
    k.output_dtypes.push_back(g.values[v].dtype);
    const bool keep = g.values[v].sizes.size() == shape.size();
    k.output_stat.push_back(r.row ? 0 : keep ? 1 : 2);
    k.output_orders.push_back(r.row ? layout_order(g.values[v]) : std::vector<int>{});
    (r.row ? row_outputs : stat_outputs).push_back(p.of_value.at(v));
  }
  // Targets of each pass: the operands of its reductions; the last pass, the row outputs not
  // stored before.
  std::vector<std::vector<int>> targets(passes + 1);
  for (size_t i = 0; i < p.rvs.size(); ++i)
    if (p.rvs[i].reduce) targets[p.rvs[i].pass].push_back(p.rvs[i].deps[0]);
  std::set<int> scratch, stored_outputs;
  std::vector<std::vector<int>> computed(passes + 1), to_scratch(passes + 1);
  std::vector<std::set<int>> loads(passes + 1), inputs(passes + 1);
  auto final_targets = [&](const std::set<int>& stored) {
    std::vector<int> t;
    for (int o : row_outputs)
      if (!stored.count(o)) t.push_back(o);
    return t;
  };
  for (int pass = 0; pass <= passes; ++pass) {
    if (pass == passes) targets[pass] = final_targets(stored_outputs);
    computed[pass] = p.closure(targets[pass], scratch, &loads[pass], &inputs[pass]);
    for (int i : targets[pass])
      if (p.rvs[i].input >= 0 && p.rvs[i].row) inputs[pass].insert(i);
    std::set<int> avail(scratch);
    avail.insert(computed[pass].begin(), computed[pass].end());
    std::set<int> stored_now(stored_outputs);
    for (int i : computed[pass])
      if (p.rvs[i].output >= 0) stored_now.insert(i);
    for (int q = pass + 1; q <= passes; ++q) {
      std::set<int> hits;
      p.closure(q == passes ? final_targets(stored_now) : targets[q], avail, &hits, nullptr);
      for (int h : hits)
        if (!scratch.count(h)) to_scratch[pass].push_back(h);
    }
    std::sort(to_scratch[pass].begin(), to_scratch[pass].end());
    to_scratch[pass].erase(std::unique(to_scratch[pass].begin(), to_scratch[pass].end()),
                           to_scratch[pass].end());
    scratch.insert(to_scratch[pass].begin(), to_scratch[pass].end());
    stored_outputs = stored_now;
  }
  std::map<int, int> slot;
  for (int s : scratch) slot.emplace(s, static_cast<int>(slot.size()));

  // The function.
  const size_t ni = k.inputs.size(), nb = ni + k.outputs.size();
  emit_kernel_header(g, k, src);
  src << "  const i64 inner = sizes[R - 1], outer = n / inner;\n"
      << "#pragma omp parallel if (n >= 65536)\n  {\n"
      << "  char* scratch = "
      << (slot.empty()
              ? "0"
              : "(char*)malloc(sizeof(double) * inner * " + std::to_string(slot.size()) + ")")
      << ";\n#pragma omp for schedule(static)\n"
      << "  for (i64 row = 0; row < outer; ++row) {\n";
  for (size_t b = 0; b < nb; ++b)
    src << "    i64 o" << b << " = 0; const i64 s" << b << " = strides[" << b << " * R + R - 1];\n";
  src << "    for (i64 rem = row, d = R - 2; d >= 0; --d) {\n"
      << "      const i64 idx = rem % sizes[d];\n      rem /= sizes[d];\n";
  for (size_t b = 0; b < nb; ++b)
    src << "      o" << b << " += idx * strides[" << b << " * R + d];\n";
  src << "    }\n";
  for (const auto& [rv, s] : slot)
    src << "    " << c_type(p.rvs[rv].dtype) << "* __restrict sc" << s << " = ("
        << c_type(p.rvs[rv].dtype) << "*)(scratch + sizeof(double) * inner * " << s << ");\n";
  std::string unit = "true";
  for (size_t b = 0; b < nb; ++b) {
    if (b < ni && k.scalar_inputs[b]) continue;
    if (b >= ni && k.output_stat[b - ni] != 0) continue;
    unit += " && s" + std::to_string(b) + " == 1";
  }
  src << "    const bool unit = " << unit << ";\n";
  // Row-constant inputs, then the stats that need no reduction.
  for (const RV& r : p.rvs)
    if (r.input >= 0 && !r.row)
      src << "    const " << c_type(r.dtype) << " " << r.name << " = p" << r.input << "[o"
          << r.input << "];\n";
  auto emit_stats = [&](int ready) {
    for (const RV& r : p.rvs)
      if (r.input < 0 && !r.row && !r.reduce && r.ready == ready)
        src << "    " << c_type(r.dtype) << " " << r.name << "; " << r.stmt << "\n";
  };
  emit_stats(0);
  for (int pass = 0; pass <= passes; ++pass) {
    if (computed[pass].empty() && targets[pass].empty()) continue;
    std::vector<int> reds;
    for (size_t i = 0; i < p.rvs.size(); ++i)
      if (p.rvs[i].reduce && p.rvs[i].pass == pass) reds.push_back(static_cast<int>(i));
    std::string clauses;
    for (int r : reds) {
      const RV& x = p.rvs[r];
      const std::string T = c_type(x.dtype);
      if (x.reduce == 1) {
        src << "    " << T << " acc" << r << " = 0;\n";
        clauses += " reduction(+ : acc" + std::to_string(r) + ")";
      } else {
        src << "    " << T << " acc" << r << " = -__builtin_inf(); int nan" << r << " = 0;\n";
        clauses += " reduction(max : acc" + std::to_string(r) + ") reduction(| : nan" +
                   std::to_string(r) + ")";
      }
    }
    src << "    if (unit) {\n";
    for (bool u : {true, false}) {
      if (u) src << "#pragma omp simd" << clauses << "\n";
      src << "    for (i64 j = 0; j < inner; ++j) {\n";
      for (int i : inputs[pass])
        src << "      const " << c_type(p.rvs[i].dtype) << " " << p.rvs[i].name << " = p"
            << p.rvs[i].input << "[" << index(p, p.rvs[i].input, u) << "];\n";
      for (int i : loads[pass])
        src << "      const " << c_type(p.rvs[i].dtype) << " " << p.rvs[i].name << " = sc"
            << slot.at(i) << "[j];\n";
      for (int i : computed[pass])
        src << "      " << c_type(p.rvs[i].dtype) << " " << p.rvs[i].name << "; " << p.rvs[i].stmt
            << "\n";
      for (int i : to_scratch[pass])
        src << "      sc" << slot.at(i) << "[j] = " << p.rvs[i].name << ";\n";
      for (int i : computed[pass])
        if (p.rvs[i].output >= 0)
          src << "      q" << p.rvs[i].output << "["
              << index(p, static_cast<int>(ni) + p.rvs[i].output, u) << "] = " << p.rvs[i].name
              << ";\n";
      for (int r : reds) {
        const std::string acc = "acc" + std::to_string(r), x = p.rvs[p.rvs[r].deps[0]].name;
        if (p.rvs[r].reduce == 1)
          src << "      " << acc << " += " << x << ";\n";
        else
          src << "      " << acc << " = " << x << " > " << acc << " ? " << x << " : " << acc
              << "; nan" << r << " |= " << x << " != " << x << ";\n";
      }
      src << "    }\n" << (u ? "    } else {\n" : "    }\n");
    }
    for (int r : reds) {
      const RV& x = p.rvs[r];
      src << "    const " << c_type(x.dtype) << " " << x.name << " = ";
      if (x.reduce == 1)
        src << "acc" << r << ";\n";
      else
        src << "nan" << r << " ? __builtin_nan(\"\") : acc" << r << ";\n";
    }
    emit_stats(pass + 1);
  }
  for (int i : stat_outputs)
    src << "    q" << p.rvs[i].output << "[row] = " << p.rvs[i].name << ";\n";
  src << "  }\n  free(scratch);\n  }\n}\n\n";
}

}  // namespace brasa::compiler
