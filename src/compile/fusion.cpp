#include "compile/fusion.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace brasa::compiler {

// Note [Fusion]
// A kernel is a maximal run of consecutive fusible nodes (trace order), so it runs exactly where
// its last node ran and reads every operand when eager would have: in-place ops and views, which
// are not fusible, end a run. A node is fusible when it is a float or double pointwise op from
// the table below, writes nothing, and its result has the run's shape (operands may broadcast).
// Every operand is converted to the node's result dtype before the operation, as the eager
// kernels do after type promotion, and the generated code is compiled with -ffp-contract=off, so
// + - * / neg relu abs sqrt reciprocal square match eager bit for bit; float exp and sigmoid use
// the inline exp (Note [Generated exp]), log, tanh and double exp call libm: all within 2 ulp of
// eager's vectorised versions. A run of one node stays eager. A run whose
// last result feeds a softmax or log_softmax over the last dim ends in that reduction, computed
// row by row in the same kernel (Note [Fused softmax]).

namespace {

// Note [Generated exp]
// A libm call in a loop keeps GCC from vectorising it (about 10x slower than eager's kernels), so
// float exp is inline: Cody-Waite reduction by ln 2 (round to nearest by the 1.5 * 2^23 trick),
// Cephes' degree-6 polynomial, and 2^n applied in two halves so that n down to -150 (subnormal
// results) and up to 128 stays exact; within 2 ulp of eager's exp (tests/compile). Double exp
// calls libm.
constexpr const char* kPreamble = R"(static inline float brasa_expf(float x) {
  const float hi = 88.72283935546875f, lo = -103.97207708f;
  float c = x > hi ? hi : (x < lo ? lo : x);
  const float fn = (c * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = c - fn * 0.693359375f;
  r = r - fn * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * (r * r) + r + 1.0f;
  const int n = (int)fn, n1 = n >> 1, n2 = n - n1;
  const int b1 = (n1 + 127) << 23, b2 = (n2 + 127) << 23;
  float s1, s2;
  __builtin_memcpy(&s1, &b1, 4);
  __builtin_memcpy(&s2, &b2, 4);
  float res = (y * s1) * s2;
  res = x > hi ? __builtin_inff() : res;
  res = x < lo ? 0.0f : res;
  return x != x ? x : res;
}
static inline double brasa_exp(double x) { return __builtin_exp(x); }

)";

struct OpForm {
  const char* name;
  int arity;
  const char* expr;  // a, b: operands in the result type T; F: "f" for float, "" for double
};
constexpr OpForm kOps[] = {
    {"add", 2, "a + b"},
    {"sub", 2, "a - b"},
    {"mul", 2, "a * b"},
    {"div", 2, "a / b"},
    {"neg", 1, "-a"},
    {"relu", 1, "(a < (T)0 ? (T)0 : a)"},
    {"abs", 1, "__builtin_fabsF(a)"},
    {"sqrt", 1, "__builtin_sqrtF(a)"},
    {"reciprocal", 1, "(T)1 / a"},
    {"square", 1, "a * a"},
    {"exp", 1, "brasa_expF(a)"},
    {"log", 1, "__builtin_logF(a)"},
    {"tanh", 1, "__builtin_tanhF(a)"},
    {"sigmoid", 1, "(T)1 / ((T)1 + brasa_expF(-a))"},
};

const OpForm* form_of(const std::string& name) {
  for (const OpForm& f : kOps)
    if (name == f.name) return &f;
  return nullptr;
}

const char* c_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Long: return "long long";
    case ScalarType::Int: return "int";
    case ScalarType::Bool: return "bool";
    default: return nullptr;
  }
}

bool fusible(const Graph& g, const Node& n) {
  const OpForm* f = form_of(n.op->name());
  if (f == nullptr || n.mutates || n.results.size() != 1 || n.num_results != 1) return false;
  if (static_cast<int>(n.refs.size()) != f->arity) return false;
  for (int i = 0; i < f->arity; ++i)
    if (n.refs[i].slot != i || n.refs[i].element >= 0) return false;
  if (f->arity == 2) {  // (self, other, alpha, out): alpha must be 1 for add and sub
    const Value& alpha = n.args[2];
    if (!alpha.is<Scalar>() || alpha.get<Scalar>().to<double>() != 1.0) return false;
  }
  const ValueInfo& out = g.values[n.results[0].value];
  if (!out.cpu || (out.dtype != ScalarType::Float && out.dtype != ScalarType::Double)) return false;
  for (const ArgRef& r : n.refs)
    if (!g.values[r.value].cpu || c_type(g.values[r.value].dtype) == nullptr) return false;
  return true;
}

/// The dims of `v` from innermost to outermost when its trace-time strides are a dense layout other
/// than row-major; empty otherwise (the result is then allocated row-major).
std::vector<int> layout_order(const ValueInfo& v) {
  const int rank = static_cast<int>(v.sizes.size());
  std::vector<int> order;
  for (int d = rank - 1; d >= 0; --d) order.push_back(d);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return v.strides[a] < v.strides[b]; });
  int64_t expected = 1;
  for (int d : order) {
    if (v.sizes[d] == 1) continue;
    if (v.strides[d] != expected) return {};
    expected *= v.sizes[d];
  }
  for (int i = 0; i < rank; ++i)
    if (order[i] != rank - 1 - i) return order;
  return {};
}

/// A softmax or log_softmax over the last dim of node `prev`'s float or double result.
bool softmax_tail(const Graph& g, const Node& n, int32_t prev) {
  const std::string& name = n.op->name();
  if ((name != "softmax" && name != "log_softmax") || n.mutates || n.refs.size() != 1 ||
      n.results.size() != 1 || n.refs[0].slot != 0 || n.refs[0].element >= 0)
    return false;
  const int32_t in = g.nodes[prev].results[0].value;
  const ValueInfo& info = g.values[in];
  const auto rank = static_cast<int64_t>(info.sizes.size());
  if (n.refs[0].value != in || rank == 0 || !n.args[1].is<int64_t>() || !n.args[2].is_none())
    return false;
  const int64_t dim = n.args[1].get<int64_t>();
  return (dim == -1 || dim == rank - 1) && g.values[n.results[0].value].dtype == info.dtype;
}

struct Builder {
  const Graph& g;
  std::vector<int> uses_after;  // per value: last node index reading it
  std::vector<int> use_count;   // per value: arguments reading it
  std::unordered_set<int32_t> graph_outputs;
  Plan plan;
  std::ostringstream src;

  /// `tail`: a softmax or log_softmax node over the run's last result, fused as row passes.
  void emit(const std::vector<int32_t>& run, int32_t tail = -1) {
    if (run.size() < 2 && tail < 0) {
      for (int32_t i : run) plan.steps.push_back({i, -1});
      return;
    }
    Kernel k;
    k.symbol = "brasa_kernel_" + std::to_string(plan.kernels.size());
    const auto& shape = g.values[g.nodes[run.back()].results[0].value].sizes;
    k.rank = std::max<int>(1, static_cast<int>(shape.size()));
    std::unordered_set<int32_t> inside;
    for (int32_t i : run) inside.insert(g.nodes[i].results[0].value);
    std::ostringstream body;
    auto operand = [&](int32_t v) -> std::string {
      if (inside.count(v)) return "v" + std::to_string(v);
      for (size_t j = 0; j < k.inputs.size(); ++j)
        if (k.inputs[j] == v) return "x" + std::to_string(j);
      k.inputs.push_back(v);
      const ValueInfo& info = g.values[v];
      int64_t numel = 1;
      for (int64_t s : info.sizes) numel *= s;
      k.scalar_inputs.push_back(numel == 1);
      return "x" + std::to_string(k.inputs.size() - 1);
    };
    for (int32_t i : run) {
      const Node& n = g.nodes[i];
      const OpForm* f = form_of(n.op->name());
      const int32_t v = n.results[0].value;
      const char* t = c_type(g.values[v].dtype);
      std::string expr = f->expr;
      const std::string suffix = g.values[v].dtype == ScalarType::Float ? "f" : "";
      for (size_t p; (p = expr.find('F')) != std::string::npos;) expr.replace(p, 1, suffix);
      body << "      { typedef " << t << " T; const T a = (T)" << operand(n.refs[0].value) << ";";
      if (f->arity == 2) body << " const T b = (T)" << operand(n.refs[1].value) << ";";
      body << " v" << v << " = " << expr << "; }\n";
      k.ops.push_back(n.op->name());
      const bool read_by_tail = tail >= 0 && i == run.back();
      const bool needed =
          graph_outputs.count(v) || (read_by_tail ? use_count[v] > 1 : uses_after[v] > run.back());
      if (needed) {
        k.outputs.push_back(v);
        k.output_dtypes.push_back(g.values[v].dtype);
        k.output_orders.push_back(layout_order(g.values[v]));
      }
    }
    if (tail >= 0) {
      const int32_t v = g.nodes[tail].results[0].value;
      k.outputs.push_back(v);
      k.output_dtypes.push_back(g.values[v].dtype);
      k.output_orders.push_back({});  // softmax results are row-major
      k.ops.push_back(g.nodes[tail].op->name());
      generate_rows(k, run, body.str(), g.nodes[tail].op->name() == "log_softmax");
    } else {
      generate(k, run, body.str());
    }
    plan.steps.push_back({-1, static_cast<int32_t>(plan.kernels.size())});
    plan.kernels.push_back(std::move(k));
  }

  void generate(const Kernel& k, const std::vector<int32_t>& run, const std::string& body) {
    header(k);
    src << "  if (flat) {\n#pragma omp parallel for simd schedule(static) if (n >= 65536)\n"
        << "    for (i64 i = 0; i < n; ++i) {\n"
        << decls(k, run, kFlat) << body << stores(k, kFlat, -1) << "    }\n    return;\n  }\n";
    row_loop(k);
    src << "    if (" << unit_test(k) << ") {\n";
    for (Mode mode : {kUnit, kStrided}) {
      src << simd(mode) << "    for (i64 j = 0; j < inner; ++j) {\n"
          << decls(k, run, mode) << body << stores(k, mode, -1) << "    }\n"
          << (mode == kUnit ? "    } else {\n" : "    }\n");
    }
    src << "  }\n}\n\n";
  }

  // Note [Fused softmax]: per row, pass 1 computes the pointwise prologue into the output row
  // (and any materialised intermediate) and its max; pass 2 sums exp(y - max); pass 3 divides (or,
  // for log_softmax, subtracts max + log(sum)), as the eager kernel does; the row is in cache for
  // passes 2 and 3. exp and the sum's order differ from eager's: results agree to ~1e-6.
  void generate_rows(const Kernel& k, const std::vector<int32_t>& run, const std::string& body,
                     bool log) {
    const size_t last = k.outputs.size() - 1;
    const int32_t pre = g.nodes[run.back()].results[0].value;
    const char* t = c_type(k.output_dtypes[last]);
    const std::string F = k.output_dtypes[last] == ScalarType::Float ? "f" : "";
    header(k);
    row_loop(k);
    src << "    typedef " << t << " T;\n    T* __restrict y = q" << last << " + o"
        << k.inputs.size() + last << ";\n    T mx = -__builtin_inf" << F << "();\n"
        << "    if (" << unit_test(k) << ") {\n";
    for (Mode mode : {kUnit, kStrided}) {
      src << (mode == kUnit ? "#pragma omp simd reduction(max : mx)\n" : "")
          << "    for (i64 j = 0; j < inner; ++j) {\n"
          << decls(k, run, mode) << body << stores(k, mode, pre) << "      mx = v" << pre
          << " > mx ? v" << pre << " : mx;\n    }\n"
          << (mode == kUnit ? "    } else {\n" : "    }\n");
    }
    src << "    T sum = 0;\n"
        << "#pragma omp simd reduction(+ : sum)\n    for (i64 j = 0; j < inner; ++j) {\n";
    if (log) {
      src << "      sum += brasa_exp" << F << "(y[j] - mx);\n    }\n"
          << "    const T lse = __builtin_log" << F << "(sum);\n"
          << "    const T sub = mx + lse;\n"
          << "#pragma omp simd\n    for (i64 j = 0; j < inner; ++j) y[j] = y[j] - sub;\n";
    } else {
      src << "      const T e = brasa_exp" << F << "(y[j] - mx);\n      y[j] = e;\n"
          << "      sum += e;\n    }\n"
          << "    const T scale = (T)1 / sum;\n"
          << "#pragma omp simd\n    for (i64 j = 0; j < inner; ++j) y[j] = y[j] * scale;\n";
    }
    src << "  }\n}\n\n";
  }

  void header(const Kernel& k) {
    src << "// ops: ";
    for (const std::string& op : k.ops) src << op << " ";
    src << "\nextern \"C\" __attribute__((visibility(\"default\"))) void " << k.symbol
        << "(char* const* in, char* const* out, const i64* sizes, const i64* strides, i64 flat) {\n"
        << "  const int R = " << k.rank << ";\n"
        << "  i64 n = 1;\n  for (int d = 0; d < R; ++d) n *= sizes[d];\n  if (n == 0) return;\n";
    for (size_t j = 0; j < k.inputs.size(); ++j)
      src << "  const " << c_type(g.values[k.inputs[j]].dtype) << "* __restrict p" << j
          << " = (const " << c_type(g.values[k.inputs[j]].dtype) << "*)in[" << j << "];\n";
    for (size_t j = 0; j < k.outputs.size(); ++j)
      src << "  " << c_type(k.output_dtypes[j]) << "* __restrict q" << j << " = ("
          << c_type(k.output_dtypes[j]) << "*)out[" << j << "];\n";
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
  static std::string unit_test(const Kernel& k) {
    std::string t = "true";
    for (size_t b = 0; b < k.inputs.size() + k.outputs.size(); ++b)
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

  /// Stores every output; with `last_value` >= 0 the last output gets that value (the prologue
  /// of a fused softmax).
  std::string stores(const Kernel& k, Mode mode, int32_t last_value) {
    std::ostringstream os;
    const size_t ni = k.inputs.size();
    for (size_t j = 0; j < k.outputs.size(); ++j) {
      const std::string idx = index(k, ni + j, mode);
      const bool last = j + 1 == k.outputs.size() && last_value >= 0;
      os << "      q" << j << "[" << idx << "] = v" << (last ? last_value : k.outputs[j]) << ";\n";
    }
    return os.str();
  }
};

}  // namespace

Plan plan(const Graph& g, bool fuse) {
  Builder b{g,
            std::vector<int>(g.values.size(), -1),
            std::vector<int>(g.values.size(), 0),
            {g.outputs.begin(), g.outputs.end()},
            {},
            {}};
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const ArgRef& r : g.nodes[i].refs) {
      b.uses_after[r.value] = static_cast<int>(i);
      ++b.use_count[r.value];
    }
  b.src << "// Generated by brasa's compile step (docs/compile.md); one kernel per fused run.\n"
        << "typedef long long i64;\n"
        << kPreamble;
  std::vector<int32_t> run;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const bool ok = fuse && fusible(g, n);
    const bool same_shape =
        !run.empty() && ok &&
        g.values[n.results[0].value].sizes == g.values[g.nodes[run.back()].results[0].value].sizes;
    if (!ok && fuse && !run.empty() && softmax_tail(g, n, run.back())) {
      b.emit(run, static_cast<int32_t>(i));
      run.clear();
      continue;
    }
    if (!run.empty() && !same_shape) {
      b.emit(run);
      run.clear();
    }
    if (ok)
      run.push_back(static_cast<int32_t>(i));
    else
      b.plan.steps.push_back({static_cast<int32_t>(i), -1});
  }
  b.emit(run);
  if (!b.plan.kernels.empty()) b.plan.source = b.src.str();
  return std::move(b.plan);
}

}  // namespace brasa::compiler
