#include "compile/fusion.h"

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
// + - * / neg relu abs sqrt reciprocal match eager bit for bit; exp, log, tanh and sigmoid call
// libm, within 2 ulp of eager's vectorised versions. A run of one node stays eager.

namespace {

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
    {"exp", 1, "__builtin_expF(a)"},
    {"log", 1, "__builtin_logF(a)"},
    {"tanh", 1, "__builtin_tanhF(a)"},
    {"sigmoid", 1, "(T)1 / ((T)1 + __builtin_expF(-a))"},
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

struct Builder {
  const Graph& g;
  std::vector<int> uses_after;  // per value: last node index reading it
  std::unordered_set<int32_t> graph_outputs;
  Plan plan;
  std::ostringstream src;

  void emit(const std::vector<int32_t>& run) {
    if (run.size() < 2) {
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
      const bool needed = graph_outputs.count(v) || uses_after[v] > run.back();
      if (needed) {
        k.outputs.push_back(v);
        k.output_dtypes.push_back(g.values[v].dtype);
      }
    }
    generate(k, run, body.str());
    plan.steps.push_back({-1, static_cast<int32_t>(plan.kernels.size())});
    plan.kernels.push_back(std::move(k));
  }

  void generate(const Kernel& k, const std::vector<int32_t>& run, const std::string& body) {
    const size_t ni = k.inputs.size(), no = k.outputs.size(), nb = ni + no;
    auto decls = [&](bool flat) {
      std::ostringstream os;
      for (int32_t i : run) {
        const int32_t v = g.nodes[i].results[0].value;
        os << "      " << c_type(g.values[v].dtype) << " v" << v << ";\n";
      }
      for (size_t j = 0; j < ni; ++j) {
        std::string idx = flat ? (k.scalar_inputs[j] ? "0" : "i")
                               : "o" + std::to_string(j) + " + j * s" + std::to_string(j);
        os << "      const " << c_type(g.values[k.inputs[j]].dtype) << " x" << j << " = p" << j
           << "[" << idx << "];\n";
      }
      return os.str();
    };
    auto stores = [&](bool flat) {
      std::ostringstream os;
      for (size_t j = 0; j < no; ++j) {
        std::string idx =
            flat ? "i" : "o" + std::to_string(ni + j) + " + j * s" + std::to_string(ni + j);
        os << "      q" << j << "[" << idx << "] = v" << k.outputs[j] << ";\n";
      }
      return os.str();
    };
    src << "// ops: ";
    for (const std::string& op : k.ops) src << op << " ";
    src << "\nextern \"C\" __attribute__((visibility(\"default\"))) void " << k.symbol
        << "(char* const* in, char* const* out, const i64* sizes, const i64* strides, i64 flat) {\n"
        << "  const int R = " << k.rank << ";\n"
        << "  i64 n = 1;\n  for (int d = 0; d < R; ++d) n *= sizes[d];\n  if (n == 0) return;\n";
    for (size_t j = 0; j < ni; ++j)
      src << "  const " << c_type(g.values[k.inputs[j]].dtype) << "* __restrict p" << j
          << " = (const " << c_type(g.values[k.inputs[j]].dtype) << "*)in[" << j << "];\n";
    for (size_t j = 0; j < no; ++j)
      src << "  " << c_type(k.output_dtypes[j]) << "* __restrict q" << j << " = ("
          << c_type(k.output_dtypes[j]) << "*)out[" << j << "];\n";
    src << "  if (flat) {\n#pragma omp parallel for simd schedule(static) if (n >= 65536)\n"
        << "    for (i64 i = 0; i < n; ++i) {\n"
        << decls(true) << body << stores(true) << "    }\n    return;\n  }\n"
        << "  const i64 inner = sizes[R - 1], outer = n / inner;\n"
        << "#pragma omp parallel for schedule(static) if (n >= 65536)\n"
        << "  for (i64 row = 0; row < outer; ++row) {\n";
    for (size_t b = 0; b < nb; ++b)
      src << "    i64 o" << b << " = 0; const i64 s" << b << " = strides[" << b
          << " * R + R - 1];\n";
    src << "    for (i64 rem = row, d = R - 2; d >= 0; --d) {\n"
        << "      const i64 idx = rem % sizes[d];\n      rem /= sizes[d];\n";
    for (size_t b = 0; b < nb; ++b)
      src << "      o" << b << " += idx * strides[" << b << " * R + d];\n";
    src << "    }\n#pragma omp simd\n    for (i64 j = 0; j < inner; ++j) {\n"
        << decls(false) << body << stores(false) << "    }\n  }\n}\n\n";
  }
};

}  // namespace

Plan plan(const Graph& g, bool fuse) {
  Builder b{g, std::vector<int>(g.values.size(), -1), {g.outputs.begin(), g.outputs.end()}, {}, {}};
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const ArgRef& r : g.nodes[i].refs) b.uses_after[r.value] = static_cast<int>(i);
  b.src << "// Generated by brasa's compile step (docs/compile.md); one kernel per fused run.\n"
        << "typedef long long i64;\n\n";
  std::vector<int32_t> run;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const bool ok = fuse && fusible(g, n);
    const bool same_shape =
        !run.empty() && ok &&
        g.values[n.results[0].value].sizes == g.values[g.nodes[run.back()].results[0].value].sizes;
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
