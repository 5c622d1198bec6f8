// GELU forward and backward in one pass each (compiled once per CPU capability): whole vectors in
// the AVX2/AVX-512 builds (SLEEF's exp and tanh, SLEEF's erf for double, a 1.5e-7 erf for float
// below), std:: functions in DEFAULT. Operands go
// through L1 blocks of the compute type (float, or double for Double): contiguous float data is
// used in place, BFloat16 and Half blocks are converted once per block with the vectorised
// converters of reduced_float.h, so a bf16 element is converted once on the way in and once out.
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
#include "backends/cpu/kernels/gelu_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "backends/cpu/vec_math.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using namespace vec;

// The constants of both forms: 1/sqrt(2), 1/sqrt(2 pi), sqrt(2/pi) and the cubic's 0.044715.
constexpr double kInvSqrt2 = M_SQRT1_2;
constexpr double kInvSqrt2Pi = M_2_SQRTPI * M_SQRT1_2 * 0.5;
constexpr double kSqrt2OverPi = M_SQRT2 * M_2_SQRTPI * 0.5;
constexpr double kCubic = 0.044715;

// One function body for scalars (std::) and vectors (SLEEF): V is float, double, VF or VD, and
// scalar_of(V) its element type. (Overloads rather than a traits template: the vector types'
// attributes are dropped in template arguments.)
inline float scalar_of(float) { return 0; }
inline double scalar_of(double) { return 0; }
inline float erf_of(float x) { return std::erf(x); }
inline double erf_of(double x) { return std::erf(x); }
inline float exp_of(float x) { return std::exp(x); }
inline double exp_of(double x) { return std::exp(x); }
inline float tanh_of(float x) { return std::tanh(x); }
inline double tanh_of(double x) { return std::tanh(x); }
// a * b + c: one rounding where the CPU has FMA (the vector builds), two in DEFAULT (Note
// [Explicit GELU roundings]).
#if BRASA_HAS_VEC
inline float fmadd(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double fmadd(double a, double b, double c) { return __builtin_fma(a, b, c); }
#else
inline float fmadd(float a, float b, float c) { return a * b + c; }
inline double fmadd(double a, double b, double c) { return a * b + c; }
#endif
#if BRASA_HAS_VEC
inline float scalar_of(VF) { return 0; }
inline double scalar_of(VD) { return 0; }
#if defined(BRASA_CPU_CAPABILITY_AVX512)
inline VF fmadd(VF a, VF b, VF c) { return _mm512_fmadd_ps(a, b, c); }
inline VD fmadd(VD a, VD b, VD c) { return _mm512_fmadd_pd(a, b, c); }
#else
inline VF fmadd(VF a, VF b, VF c) { return _mm256_fmadd_ps(a, b, c); }
inline VD fmadd(VD a, VD b, VD c) { return _mm256_fmadd_pd(a, b, c); }
#endif
// Float vectors: Abramowitz & Stegun 7.1.26, erf(x) = 1 - (a1 t + ... + a5 t^5) exp(-x^2) with
// t = 1 / (1 + p |x|), odd in x; |error| < 1.5e-7, within a float's resolution of erf's values near
// 1 and, through x * Phi(x), far inside conformance tolerances. One exp and one division: a fifth
// of the time of SLEEF's 1-ulp erf, which made GELU five times slower than exp. `e` gets the
// exp(-x^2) it computes.
inline VF erf_and_exp(VF x, VF& e) {
  const VF ax = x < 0.0f ? -x : x;
  const VF t = 1.0f / fmadd(VF{} + 0.3275911f, ax, VF{} + 1.0f);
  VF poly = fmadd(VF{} + 1.061405429f, t, VF{} - 1.453152027f);
  poly = fmadd(poly, t, VF{} + 1.421413741f);
  poly = fmadd(poly, t, VF{} - 0.284496736f);
  poly = fmadd(poly, t, VF{} + 0.254829592f) * t;
  e = vexp(-(ax * ax));
  const VF y = fmadd(-poly, e, VF{} + 1.0f);
  return x < 0.0f ? -y : y;
}
inline VF erf_of(VF x) {
  VF e;
  return erf_and_exp(x, e);
}
inline VD erf_of(VD x) { return verf(x); }
inline VF exp_of(VF x) { return vexp(x); }
inline VD exp_of(VD x) { return vexp(x); }
inline VF tanh_of(VF x) { return vtanh(x); }
inline VD tanh_of(VD x) { return vtanh(x); }
#endif

// Note [Explicit GELU roundings]
// Every multiply-add below is an explicit fmadd and this file is compiled with -ffp-contract=off
// (src/CMakeLists.txt), so each element's value is fixed by the source, not by what the compiler
// chooses to contract: the compile step's generated GELU (src/compile/codegen.cpp, brasa_gelu_*)
// performs the same operations in the same order with the same SLEEF calls and is bit for bit
// eager's.
template <bool kTanh, typename V>
V gelu(V x) {
  using S = decltype(scalar_of(x));
  if constexpr (kTanh) {
    const V inner = S(kSqrt2OverPi) * fmadd(V{} + S(kCubic), x * x * x, x);
    return S(0.5) * x * (S(1) + tanh_of(inner));
  } else {
    return x * S(0.5) * (S(1) + erf_of(x * S(kInvSqrt2)));
  }
}

// The erf form's Phi(x) and phi(x) (the normal distribution's cdf and density).
template <typename V>
void cdf_pdf(V x, V& cdf, V& pdf) {
  using S = decltype(scalar_of(x));
  cdf = S(0.5) * (S(1) + erf_of(x * S(kInvSqrt2)));
  pdf = S(kInvSqrt2Pi) * exp_of(S(-0.5) * (x * x));
}
#if BRASA_HAS_VEC
// Float vectors: the density's exp(-x^2 / 2) is the exp(-z^2), z = x / sqrt(2), that the erf
// above computes: taken from it (one SLEEF exp an element instead of two; ~30% of the backward).
inline void cdf_pdf(VF x, VF& cdf, VF& pdf) {
  VF e;
  const VF erf = erf_and_exp(x * float(kInvSqrt2), e);
  cdf = 0.5f * (1.0f + erf);
  pdf = float(kInvSqrt2Pi) * e;
}
#endif

// d gelu(x) / dx times g.
template <bool kTanh, typename V>
V gelu_grad(V g, V x) {
  using S = decltype(scalar_of(x));
  if constexpr (kTanh) {
    const V x2 = x * x;
    const V t = tanh_of(S(kSqrt2OverPi) * fmadd(V{} + S(kCubic), x2 * x, x));
    const V dinner = S(kSqrt2OverPi) * fmadd(V{} + S(3 * kCubic), x2, V{} + S(1));
    return g * fmadd(S(0.5) * x, fmadd(-t, t, V{} + S(1)) * dinner, S(0.5) * (S(1) + t));
  } else {
    V cdf, pdf;
    cdf_pdf(x, cdf, pdf);
    return g * fmadd(x, pdf, cdf);
  }
}

// Runs f(in0, in1, out, m) over contiguous compute-type arrays, vector by vector; the last partial
// vector is padded (Note [Vector tails] in vec_math.h).
template <bool kTanh, bool kBackward, typename C>
void compute(const C* a, const C* b, C* out, int64_t n) {
  auto one = [](const auto& va, const auto& vb) {
    if constexpr (kBackward) {
      return gelu_grad<kTanh>(va, vb);
    } else {
      (void)vb;
      return gelu<kTanh>(va);
    }
  };
#if BRASA_HAS_VEC
  constexpr int64_t W = kWidth<C>;
  int64_t i = 0;
  for (; i + W <= n; i += W)
    storeu(out + i, one(loadu(a + i), kBackward ? loadu(b + i) : loadu(a + i)));
  if (i < n) {
    C pa[W] = {}, pb[W] = {};
    std::memcpy(pa, a + i, size_t(n - i) * sizeof(C));
    if (kBackward) std::memcpy(pb, b + i, size_t(n - i) * sizeof(C));
    storeu(pa, one(loadu(pa), loadu(pb)));
    std::memcpy(out + i, pa, size_t(n - i) * sizeof(C));
  }
#else
  for (int64_t i = 0; i < n; ++i) out[i] = one(a[i], kBackward ? b[i] : a[i]);
#endif
}

// A block of m elements of dtype T at p (stride in bytes) as compute-type values: in place when
// the data already is, else converted into buf.
template <typename T, typename C>
const C* load_block(const char* p, int64_t stride, C* buf, int64_t m) {
  if constexpr (std::is_same_v<T, C>) {
    if (stride == int64_t(sizeof(T))) return reinterpret_cast<const C*>(p);
  }
  if constexpr (std::is_same_v<T, BFloat16>) {
    if (stride == 2) {
      load_bf16_contiguous(reinterpret_cast<const uint16_t*>(p), buf, m);
      return buf;
    }
  }
  if constexpr (std::is_same_v<T, Half>) {
    load_half(p, stride, buf, m);
    return buf;
  }
  for (int64_t j = 0; j < m; ++j) buf[j] = C(*reinterpret_cast<const T*>(p + j * stride));
  return buf;
}

template <typename T, typename C>
void store_block(const C* buf, char* p, int64_t stride, int64_t m) {
  if constexpr (std::is_same_v<T, BFloat16>) {
    if (stride == 2) return store_bf16_contiguous(buf, reinterpret_cast<uint16_t*>(p), m);
  }
  if constexpr (std::is_same_v<T, Half>)
    return store_results(true, buf, sizeof(float), p, stride, m);
  for (int64_t j = 0; j < m; ++j) *reinterpret_cast<T*>(p + j * stride) = T(buf[j]);
}

// Operand 0 is the output; 1 (and 2 for the backward) the inputs.
template <bool kTanh, bool kBackward, typename T>
void run(TensorIterator& it) {
  using C = compute_t<T>;
  it.for_each([](char** d, const int64_t* s, int64_t n) {
    alignas(64) C a_buf[kReducedBlock], b_buf[kReducedBlock], out_buf[kReducedBlock];
    for (int64_t b = 0; b < n; b += kReducedBlock) {
      const int64_t m = std::min(kReducedBlock, n - b);
      const C* a = load_block<T>(d[1] + b * s[1], s[1], a_buf, m);
      const C* x = kBackward ? load_block<T>(d[2] + b * s[2], s[2], b_buf, m) : a;
      const bool direct = std::is_same_v<T, C> && s[0] == int64_t(sizeof(T));
      C* out = direct ? reinterpret_cast<C*>(d[0] + b * s[0]) : out_buf;
      compute<kTanh, kBackward>(a, x, out, m);
      if (!direct) store_block<T>(out, d[0] + b * s[0], s[0], m);
    }
  });
}

template <bool kBackward>
void gelu_family_kernel(TensorIterator& it, bool tanh) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), kBackward ? "gelu_backward" : "gelu", [&] {
    tanh ? run<true, kBackward, scalar_t>(it) : run<false, kBackward, scalar_t>(it);
  });
}
void gelu_kernel(TensorIterator& it, bool tanh) { gelu_family_kernel<false>(it, tanh); }
void gelu_backward_kernel(TensorIterator& it, bool tanh) { gelu_family_kernel<true>(it, tanh); }

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(gelu_stub, ::brasa::cpu::gelu_kernel);
BRASA_REGISTER_STUB(gelu_backward_stub, ::brasa::cpu::gelu_backward_kernel);
}  // namespace brasa::ops
