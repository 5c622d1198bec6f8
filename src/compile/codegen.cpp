#include "compile/codegen.h"

#include <algorithm>

#include "compile/fusion.h"

namespace brasa::compiler {

// Note [Generated math]
// Generated loops are vectorised by `#pragma omp simd` at -O2 (Note [Compile time]). A plain libm
// call keeps such a loop scalar (about 10x slower than eager's SLEEF kernels), so:
//  - float exp is inline (Note [Generated exp]); it vectorises as ordinary arithmetic;
//  - tanh, erf, log, log1p, expm1, sin, cos (and double exp) are declared
//    `__attribute__((simd("notinbranch")))`, the GNU vector ABI: GCC calls their vector variants
//    (_ZGVeN16v_tanhf, ...) for whole vectors, and the file is linked with SLEEF's GNU-ABI library
//    (libsleefgnuabi, the 1-ulp functions eager's kernels call through SLEEF's own names), so a
//    vectorised element gets exactly eager's value. The few elements of a loop's scalar remainder
//    call libm (correctly rounded or within 1 ulp), so every element is within 2 ulp of eager.
//  - + - * / neg relu abs sqrt rsqrt reciprocal square are IEEE operations done in the result
//    type after the same conversions as eager, with -ffp-contract=off: bit for bit eager's.
//
// Note [Generated exp]
// Cody-Waite reduction by ln 2 (round to nearest by the 1.5 * 2^23 trick), Cephes' degree-6
// polynomial, and 2^n applied in two halves so that n down to -150 (subnormal results) and up to
// 128 stays exact; within 2 ulp of eager's exp (tests/compile).

namespace {

constexpr const char* kPreamble = R"(typedef long long i64;
#define BRASA_VECTOR_MATH 1
extern "C" {
__attribute__((simd("notinbranch"))) float tanhf(float);
__attribute__((simd("notinbranch"))) double tanh(double);
__attribute__((simd("notinbranch"))) float erff(float);
__attribute__((simd("notinbranch"))) double erf(double);
__attribute__((simd("notinbranch"))) float logf(float);
__attribute__((simd("notinbranch"))) double log(double);
__attribute__((simd("notinbranch"))) float log1pf(float);
__attribute__((simd("notinbranch"))) double log1p(double);
__attribute__((simd("notinbranch"))) float expm1f(float);
__attribute__((simd("notinbranch"))) double expm1(double);
__attribute__((simd("notinbranch"))) float sinf(float);
__attribute__((simd("notinbranch"))) double sin(double);
__attribute__((simd("notinbranch"))) float cosf(float);
__attribute__((simd("notinbranch"))) double cos(double);
__attribute__((simd("notinbranch"))) double exp(double);
void* malloc(unsigned long);
void free(void*);
}
static inline float brasa_expf(float x) {
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
static inline double brasa_exp(double x) { return exp(x); }

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
    {"rsqrt", 1, "(T)1 / __builtin_sqrtF(a)"},
    {"reciprocal", 1, "(T)1 / a"},
    {"square", 1, "a * a"},
    {"exp", 1, "brasa_expF(a)"},
    {"log", 1, "logF(a)"},
    {"log1p", 1, "log1pF(a)"},
    {"expm1", 1, "expm1F(a)"},
    {"sin", 1, "sinF(a)"},
    {"cos", 1, "cosF(a)"},
    {"tanh", 1, "tanhF(a)"},
    {"erf", 1, "erfF(a)"},
    {"sigmoid", 1, "(T)1 / ((T)1 + brasa_expF(-a))"},
};

const OpForm* form_of(const std::string& name) {
  for (const OpForm& f : kOps)
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace

const char* generated_preamble() { return kPreamble; }

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

bool fusible_pointwise(const Graph& g, const Node& n) {
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

std::string typed_expression(const std::string& expr, ScalarType t) {
  std::string e = expr;
  const std::string suffix = t == ScalarType::Float ? "f" : "";
  for (size_t p; (p = e.find('F')) != std::string::npos;) e.replace(p, 1, suffix);
  return e;
}

std::string pointwise_statement(const Graph& g, const Node& n, const std::string& result,
                                const std::string& a, const std::string& b) {
  const OpForm* f = form_of(n.op->name());
  const ScalarType t = g.values[n.results[0].value].dtype;
  std::string s = std::string("{ typedef ") + c_type(t) + " T; const T a = (T)" + a + ";";
  if (f->arity == 2) s += " const T b = (T)" + b + ";";
  return s + " " + result + " = " + typed_expression(f->expr, t) + "; }";
}

void emit_kernel_header(const Graph& g, const Kernel& k, std::ostream& src) {
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

}  // namespace brasa::compiler
