#include "compile/codegen.h"

#include <algorithm>
#include <cstdlib>

#include "compile/fusion.h"

namespace brasa::compiler {

// Note [Generated math]
// Generated loops are vectorised by `#pragma omp simd` at -O2 (Note [Compile time]). A plain libm
// call would keep such a loop scalar (about 10x slower than eager's SLEEF kernels) and round
// differently from eager, so exp, tanh, erf, log, log1p, expm1, sin and cos are brasa_<fn>[f]:
// functions declared `__attribute__((simd("notinbranch")))` (the GNU vector ABI), whose vector
// variants (_ZGVeN16v_brasa_tanhf, ...) the file itself defines as calls of the SLEEF functions
// eager's kernels call for the same CPU (Sleef_tanhf16_u10avx512f on AVX-512, ..._avx2 on AVX2).
// Their scalar forms, which loop remainders and strided loops call, put the element in lane 0 of
// a zero vector and call the same SLEEF function, as eager does for its last partial vector (Note
// [Vector tails]). So every element gets exactly eager's value: transcendentals are bit for bit
// eager's too, and so are gradients through them. (The scalar form is defined under another C name
// with the assembler name of the declared one, so GCC does not derive its own vector variants.)
// Without AVX2 the functions are libm's, as in eager's DEFAULT build. + - * / neg relu abs sqrt
// rsqrt reciprocal square are IEEE operations in the result type after the same conversions as
// eager, with -ffp-contract=off: bit for bit eager's.
//
// Float erf is the exception (Note [Generated erf]): SLEEF's 1-ulp erff cost ~3.5 ns per element,
// 8x torch.compile's GELU, so generated code has an erf of its own within 1 ulp of eager's.

// Note [Generated erf]
// brasa_erff_ for float: |x| < 1.5: x * P(x^2) in double (P: a degree-8 least-squares fit of
// erf(x)/x, relative error < 1e-9; float's precision would lose ~1 ulp to P's cancellation), then
// rounded to float; |x| >= 1.5: 1 - exp(-x^2) Q(1/|x|) in float with Q a degree-7 fit of
// erfc(x) exp(x^2) on [1.5, 4] (|x| clamped to 4, where erf rounds to 1): there erfc/erf < 0.035,
// so float's rounding in Q, in x^2 and in SLEEF's expf moves the result by under 0.3 ulp. Both
// sides are computed for every element and picked with a bitwise select (brasa_select: a branch
// around the expf call would keep the loop scalar); the FMAs are explicit, so the result does not
// depend on -ffp-contract. Checked over every float in [0, 4.5] (bench/erf_check.cpp): within
// 1 ulp of SLEEF's erff (eager's) and of the correctly rounded value, odd, erf(+-inf) = +-1, NaN
// stays NaN; 2.6x faster than SLEEF's erff. Double erf stays SLEEF's (bit for bit eager's).

namespace {

constexpr const char* kPreamble = R"(typedef long long i64;
extern "C" {
void* malloc(unsigned long);
void free(void*);
}
#if defined(__AVX512F__) || defined(__AVX2__)
#define BRASA_VMATH_VARIANT(fn, W, SF, SD, VF, VD)                                           \
  typedef float fn##_vf##W __attribute__((vector_size(W)));                                  \
  typedef double fn##_vd##W __attribute__((vector_size(W)));                                 \
  extern "C" fn##_vf##W SF(fn##_vf##W);                                                      \
  extern "C" fn##_vd##W SD(fn##_vd##W);                                                      \
  extern "C" fn##_vf##W VF(fn##_vf##W x) { return SF(x); }                                   \
  extern "C" fn##_vd##W VD(fn##_vd##W x) { return SD(x); }
#define BRASA_VMATH_SCALAR(fn, W, SF, SD)                                                    \
  extern "C" __attribute__((simd("notinbranch"))) float brasa_##fn##f(float);                \
  extern "C" __attribute__((simd("notinbranch"))) double brasa_##fn(double);                 \
  extern "C" float brasa_s_##fn##f(float) __asm__("brasa_" #fn "f");                         \
  extern "C" double brasa_s_##fn(double) __asm__("brasa_" #fn);                              \
  extern "C" float brasa_s_##fn##f(float x) { fn##_vf##W v = {x}; return SF(v)[0]; }        \
  extern "C" double brasa_s_##fn(double x) { fn##_vd##W v = {x}; return SD(v)[0]; }
#define BRASA_AVX2(fn)                                                                       \
  BRASA_VMATH_VARIANT(fn, 32, Sleef_##fn##f8_u10avx2, Sleef_##fn##d4_u10avx2,                \
                      _ZGVdN8v_brasa_##fn##f, _ZGVdN4v_brasa_##fn)
#if defined(__AVX512F__)
#define BRASA_VMATH(fn)                                                                      \
  BRASA_AVX2(fn)                                                                             \
  BRASA_VMATH_VARIANT(fn, 64, Sleef_##fn##f16_u10avx512f, Sleef_##fn##d8_u10avx512f,         \
                      _ZGVeN16v_brasa_##fn##f, _ZGVeN8v_brasa_##fn)                          \
  BRASA_VMATH_SCALAR(fn, 64, Sleef_##fn##f16_u10avx512f, Sleef_##fn##d8_u10avx512f)
#else
#define BRASA_VMATH(fn)                                                                      \
  BRASA_AVX2(fn) BRASA_VMATH_SCALAR(fn, 32, Sleef_##fn##f8_u10avx2, Sleef_##fn##d4_u10avx2)
#endif
#else
#define BRASA_VMATH(fn)                                                                      \
  static inline float brasa_##fn##f(float x) { return __builtin_##fn##f(x); }               \
  static inline double brasa_##fn(double x) { return __builtin_##fn(x); }
#endif
BRASA_VMATH(exp)
BRASA_VMATH(tanh)
BRASA_VMATH(erf)
BRASA_VMATH(log)
BRASA_VMATH(log1p)
BRASA_VMATH(expm1)
BRASA_VMATH(sin)
BRASA_VMATH(cos)

static inline __attribute__((always_inline)) float brasa_select(bool c, float a, float b) {
  int ia, ib;
  __builtin_memcpy(&ia, &a, 4);
  __builtin_memcpy(&ib, &b, 4);
  const int m = -(int)c;
  const int r = (ia & m) | (ib & ~m);
  float o;
  __builtin_memcpy(&o, &r, 4);
  return o;
}
static inline __attribute__((always_inline)) float brasa_erff_(float x) {
  const float a = __builtin_fabsf(x);
  const double xd = (double)x, t = xd * xd;
  double p = 6.1983452236100626e-7;
  p = __builtin_fma(p, t, -1.132422060970891e-5);
  p = __builtin_fma(p, t, 0.00011308987468858491);
  p = __builtin_fma(p, t, -0.00084547573432197334);
  p = __builtin_fma(p, t, 0.0052169721341505178);
  p = __builtin_fma(p, t, -0.02686321201140317);
  p = __builtin_fma(p, t, 0.11283729729422805);
  p = __builtin_fma(p, t, -0.37612634159636163);
  p = __builtin_fma(p, t, 1.1283791667169945);
  const float small = (float)(xd * p);
  const float al = brasa_select(a > 4.0f, 4.0f, brasa_select(a < 1.5f, 1.5f, a));
  const float u = 1.0f / al;
  float q = 0.02727873865f;
  q = __builtin_fmaf(q, u, -0.03140411886f);
  q = __builtin_fmaf(q, u, -0.1382935957f);
  q = __builtin_fmaf(q, u, 0.4086237389f);
  q = __builtin_fmaf(q, u, -0.429802049f);
  q = __builtin_fmaf(q, u, 0.03064793243f);
  q = __builtin_fmaf(q, u, 0.5606988966f);
  q = __builtin_fmaf(q, u, 0.0001697641137f);
  const float large = __builtin_copysignf(__builtin_fmaf(-brasa_expf(-(a * a)), q, 1.0f), x);
  return brasa_select(a < 1.5f, small, large);
}
static inline __attribute__((always_inline)) double brasa_erf_(double x) { return brasa_erf(x); }
#define BRASA_INLINE static inline __attribute__((always_inline))
#if defined(__AVX512F__) || defined(__AVX2__)
BRASA_INLINE float brasa_gfma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
BRASA_INLINE double brasa_gfma(double a, double b, double c) { return __builtin_fma(a, b, c); }
BRASA_INLINE float brasa_gerf_e(float x, float& e) {
  const float ax = brasa_select(x < 0.0f, -x, x);  // a branch would keep the loop scalar
  const float t = 1.0f / brasa_gfma(0.3275911f, ax, 1.0f);
  float p = brasa_gfma(1.061405429f, t, -1.453152027f);
  p = brasa_gfma(p, t, 1.421413741f);
  p = brasa_gfma(p, t, -0.284496736f);
  p = brasa_gfma(p, t, 0.254829592f) * t;
  e = brasa_expf(-(ax * ax));
  const float y = brasa_gfma(-p, e, 1.0f);
  return brasa_select(x < 0.0f, -y, y);
}
BRASA_INLINE float brasa_gerf(float x) {
  float e;
  return brasa_gerf_e(x, e);
}
#else
BRASA_INLINE float brasa_gfma(float a, float b, float c) { return a * b + c; }
BRASA_INLINE double brasa_gfma(double a, double b, double c) { return a * b + c; }
BRASA_INLINE float brasa_gerf(float x) { return brasa_erff(x); }
#endif
BRASA_INLINE double brasa_gerf(double x) { return brasa_erf(x); }
BRASA_INLINE float brasa_gexp(float x) { return brasa_expf(x); }
BRASA_INLINE double brasa_gexp(double x) { return brasa_exp(x); }
BRASA_INLINE float brasa_gtanh(float x) { return brasa_tanhf(x); }
BRASA_INLINE double brasa_gtanh(double x) { return brasa_tanh(x); }
constexpr double brasa_k_inv_sqrt2 = 0.70710678118654752440;
constexpr double brasa_k_inv_sqrt_2pi = 1.12837916709551257390 * 0.70710678118654752440 * 0.5;
constexpr double brasa_k_sqrt_2_over_pi = 1.41421356237309504880 * 1.12837916709551257390 * 0.5;
constexpr double brasa_k_cubic = 0.044715;
template <typename T> BRASA_INLINE T brasa_gelu(T x) {
  return x * (T)0.5 * ((T)1 + brasa_gerf(x * (T)brasa_k_inv_sqrt2));
}
template <typename T> BRASA_INLINE T brasa_gelu_tanh(T x) {
  const T inner = (T)brasa_k_sqrt_2_over_pi * brasa_gfma((T)brasa_k_cubic, x * x * x, x);
  return (T)0.5 * x * ((T)1 + brasa_gtanh(inner));
}
template <typename T> BRASA_INLINE T brasa_gelu_backward(T g, T x) {
  const T cdf = (T)0.5 * ((T)1 + brasa_gerf(x * (T)brasa_k_inv_sqrt2));
  const T pdf = (T)brasa_k_inv_sqrt_2pi * brasa_gexp((T)-0.5 * (x * x));
  return g * brasa_gfma(x, pdf, cdf);
}
template <typename T> BRASA_INLINE T brasa_gelu_tanh_backward(T g, T x) {
  const T x2 = x * x;
  const T t = brasa_gtanh((T)brasa_k_sqrt_2_over_pi * brasa_gfma((T)brasa_k_cubic, x2 * x, x));
  const T dinner = (T)brasa_k_sqrt_2_over_pi * brasa_gfma((T)(3 * brasa_k_cubic), x2, (T)1);
  return g * brasa_gfma((T)0.5 * x, brasa_gfma(-t, t, (T)1) * dinner, (T)0.5 * ((T)1 + t));
}
#if defined(__AVX512F__) || defined(__AVX2__)
BRASA_INLINE float brasa_gelu_backward(float g, float x) {  // the density's exp from erf's
  float e;
  const float erf = brasa_gerf_e(x * (float)brasa_k_inv_sqrt2, e);
  const float cdf = 0.5f * (1.0f + erf);
  const float pdf = (float)brasa_k_inv_sqrt_2pi * e;
  return g * brasa_gfma(x, pdf, cdf);
}
#endif

)";

struct OpForm {
  const char* name;
  int arity;
  const char* expr;  // a, b: operands in the result type T; F: "f" for float, "" for double
};
// Binary forms take (self, other, alpha, out) with alpha 1, except GELU's backward, whose third
// argument is `approximate` (as GELU's second): "none" or "tanh" picks the form (kGeluForms).
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
    {"log", 1, "brasa_logF(a)"},
    {"log1p", 1, "brasa_log1pF(a)"},
    {"expm1", 1, "brasa_expm1F(a)"},
    {"sin", 1, "brasa_sinF(a)"},
    {"cos", 1, "brasa_cosF(a)"},
    {"tanh", 1, "brasa_tanhF(a)"},
    {"erf", 1, "brasa_erfF_(a)"},  // Note [Generated erf]
    {"sigmoid", 1, "(T)1 / ((T)1 + brasa_expF(-a))"},
    {"pow", 2, "__builtin_powF(a, b)"},  // libm's pow, which eager's kernel calls per element
};

// Note [Generated GELU]: gelu and gelu_backward (both forms) are the preamble's brasa_gelu*,
// which repeat eager's kernels operation for operation (Note [Explicit GELU roundings] in
// backends/cpu/kernels/gelu_kernels.cpp): explicit FMAs, the same A&S erf for float vectors
// (SLEEF's erf for double), the same SLEEF exp and tanh, and for the float backward the density's
// exp taken from the erf's, as eager's does. Bit for bit eager's, forward and backward.
constexpr OpForm kGeluForms[] = {
    {"gelu", 1, "brasa_gelu(a)"},
    {"gelu", 1, "brasa_gelu_tanh(a)"},
    {"gelu_backward", 2, "brasa_gelu_backward(a, b)"},
    {"gelu_backward", 2, "brasa_gelu_tanh_backward(a, b)"},
};

const OpForm* form_of(const Node& n) {
  const std::string name = n.op->name();
  if (name == "gelu" || name == "gelu_backward") {
    static const bool enabled = [] {  // BRASA_COMPILE_GELU=0: left to eager (for comparisons)
      const char* v = std::getenv("BRASA_COMPILE_GELU");
      return v == nullptr || std::string(v) != "0";
    }();
    if (!enabled) return nullptr;
    const size_t slot = name == "gelu" ? 1 : 2;  // `approximate`
    if (n.args.size() <= slot || !n.args[slot].is<std::string>()) return nullptr;
    const std::string& approximate = n.args[slot].get<std::string>();
    if (approximate != "none" && approximate != "tanh") return nullptr;
    return &kGeluForms[(name == "gelu" ? 0 : 2) + (approximate == "tanh" ? 1 : 0)];
  }
  for (const OpForm& f : kOps)
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace

bool fusible_op_name(const std::string& name) {
  if (name == "gelu" || name == "gelu_backward") return true;
  for (const OpForm& f : kOps)
    if (name == f.name) return true;
  return false;
}

namespace {

bool takes_alpha(const Node& n) { return n.op->name() != std::string("gelu_backward"); }

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
  const OpForm* f = form_of(n);
  if (f == nullptr || n.mutates || n.results.size() != 1 || n.num_results != 1) return false;
  if (static_cast<int>(n.refs.size()) != f->arity) return false;
  for (int i = 0; i < f->arity; ++i)
    if (n.refs[i].slot != i || n.refs[i].element >= 0) return false;
  if (f->arity == 2 && takes_alpha(n)) {  // (self, other, alpha, out): alpha must be 1
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
  const OpForm* f = form_of(n);
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
