#pragma once
// Vector math for the kernel files (compiled once per CPU capability): the capability's float and
// double vector types, SLEEF wrappers, and map_unary(), which runs a unary op over an iterator,
// vectorised over contiguous blocks. Strided operands go through a small stack buffer; Half and
// BFloat16 are converted to float blocks, computed, and converted back. In the DEFAULT build the
// op's scalar form (std:: functions) runs instead.
//
// An op is a struct with `template <typename T> static T scalar(T)` (T = float or double) and, when
// it has a vector form, `template <typename V> static V vec(V)` over the types below.
//
// Note [Vector tails]
// The last partial vector of a block is padded into a full vector rather than computed with the
// scalar function, so an element's result never depends on its position or on the tensor's length
// (SLEEF and libm may differ in the last ulp).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "backends/cpu/reduced_float.h"
#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/half.h"

#if defined(BRASA_CPU_CAPABILITY_AVX2) || defined(BRASA_CPU_CAPABILITY_AVX512)
#define BRASA_HAS_VEC 1
#include <immintrin.h>
#include <sleef.h>
#else
#define BRASA_HAS_VEC 0
#endif

namespace brasa::cpu::vec {

#if defined(BRASA_CPU_CAPABILITY_AVX512)
using VF = __m512;
using VD = __m512d;
#define BRASA_SLEEF_F(fn, acc) Sleef_##fn##f16_##acc##avx512f
#define BRASA_SLEEF_D(fn, acc) Sleef_##fn##d8_##acc##avx512f
inline VF loadu(const float* p) { return _mm512_loadu_ps(p); }
inline VD loadu(const double* p) { return _mm512_loadu_pd(p); }
inline void storeu(float* p, VF v) { _mm512_storeu_ps(p, v); }
inline void storeu(double* p, VD v) { _mm512_storeu_pd(p, v); }
template <int mode>
inline VF round_mode(VF x) {  // the masked form avoids GCC 12's bogus -Wmaybe-uninitialized
  return _mm512_mask_roundscale_ps(x, __mmask16(0xffff), x, mode | _MM_FROUND_NO_EXC);
}
template <int mode>
inline VD round_mode(VD x) {
  return _mm512_mask_roundscale_pd(x, __mmask8(0xff), x, mode | _MM_FROUND_NO_EXC);
}
inline VF vsqrt(VF x) { return _mm512_mask_sqrt_ps(x, __mmask16(0xffff), x); }
inline VD vsqrt(VD x) { return _mm512_mask_sqrt_pd(x, __mmask8(0xff), x); }
#elif defined(BRASA_CPU_CAPABILITY_AVX2)
using VF = __m256;
using VD = __m256d;
#define BRASA_SLEEF_F(fn, acc) Sleef_##fn##f8_##acc##avx2
#define BRASA_SLEEF_D(fn, acc) Sleef_##fn##d4_##acc##avx2
inline VF loadu(const float* p) { return _mm256_loadu_ps(p); }
inline VD loadu(const double* p) { return _mm256_loadu_pd(p); }
inline void storeu(float* p, VF v) { _mm256_storeu_ps(p, v); }
inline void storeu(double* p, VD v) { _mm256_storeu_pd(p, v); }
template <int mode>
inline VF round_mode(VF x) {
  return _mm256_round_ps(x, mode | _MM_FROUND_NO_EXC);
}
template <int mode>
inline VD round_mode(VD x) {
  return _mm256_round_pd(x, mode | _MM_FROUND_NO_EXC);
}
inline VF vsqrt(VF x) { return _mm256_sqrt_ps(x); }
inline VD vsqrt(VD x) { return _mm256_sqrt_pd(x); }
#endif

#if BRASA_HAS_VEC
template <typename T>
struct VecOf;
template <>
struct VecOf<float> {
  static constexpr int64_t width = int64_t(sizeof(VF) / sizeof(float));
};
template <>
struct VecOf<double> {
  static constexpr int64_t width = int64_t(sizeof(VD) / sizeof(double));
};
template <typename T>
constexpr int64_t kWidth = VecOf<T>::width;

inline VF vfloor(VF x) { return round_mode<_MM_FROUND_TO_NEG_INF>(x); }
inline VD vfloor(VD x) { return round_mode<_MM_FROUND_TO_NEG_INF>(x); }
inline VF vceil(VF x) { return round_mode<_MM_FROUND_TO_POS_INF>(x); }
inline VD vceil(VD x) { return round_mode<_MM_FROUND_TO_POS_INF>(x); }
inline VF vtrunc(VF x) { return round_mode<_MM_FROUND_TO_ZERO>(x); }
inline VD vtrunc(VD x) { return round_mode<_MM_FROUND_TO_ZERO>(x); }
inline VF vrint(VF x) { return round_mode<_MM_FROUND_TO_NEAREST_INT>(x); }
inline VD vrint(VD x) { return round_mode<_MM_FROUND_TO_NEAREST_INT>(x); }

// vexp(x), vlog(x), ...: SLEEF's 1-ulp (u10) functions for both vector types.
#define BRASA_VEC_SLEEF(fn)                                   \
  inline VF v##fn(VF x) { return BRASA_SLEEF_F(fn, u10)(x); } \
  inline VD v##fn(VD x) { return BRASA_SLEEF_D(fn, u10)(x); }
BRASA_VEC_SLEEF(exp)
BRASA_VEC_SLEEF(exp2)
BRASA_VEC_SLEEF(expm1)
BRASA_VEC_SLEEF(log)
BRASA_VEC_SLEEF(log2)
BRASA_VEC_SLEEF(log10)
BRASA_VEC_SLEEF(log1p)
BRASA_VEC_SLEEF(sin)
BRASA_VEC_SLEEF(cos)
BRASA_VEC_SLEEF(tan)
BRASA_VEC_SLEEF(asin)
BRASA_VEC_SLEEF(acos)
BRASA_VEC_SLEEF(atan)
BRASA_VEC_SLEEF(sinh)
BRASA_VEC_SLEEF(cosh)
BRASA_VEC_SLEEF(tanh)
BRASA_VEC_SLEEF(erf)
#undef BRASA_VEC_SLEEF

template <typename Op>
constexpr bool has_vec = requires(VF f, VD d) {
  Op::vec(f);
  Op::vec(d);
};
#else
template <typename Op>
constexpr bool has_vec = false;
#endif

/// out[i] = Op(in[i]) for i < n over contiguous arrays (T = float or double).
template <typename Op, typename T>
inline void map_contiguous(const T* in, T* out, int64_t n) {
#if BRASA_HAS_VEC
  if constexpr (has_vec<Op>) {
    constexpr int64_t W = kWidth<T>;
    int64_t i = 0;
    for (; i + W <= n; i += W) storeu(out + i, Op::vec(loadu(in + i)));
    if (i < n) {  // Note [Vector tails]
      T buf[W] = {};
      std::memcpy(buf, in + i, size_t(n - i) * sizeof(T));
      storeu(buf, Op::vec(loadu(buf)));
      std::memcpy(out + i, buf, size_t(n - i) * sizeof(T));
    }
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) out[i] = Op::scalar(in[i]);
}

template <typename T>
using compute_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Note [BFloat16 blocks]
// Contiguous BFloat16 data is converted to float a block at a time by loops over the raw bits
// (load_bf16_contiguous / store_bf16_contiguous in reduced_float.h), which vectorise, then the
// op's float vector form runs on the block. Converting element by element through the BFloat16
// type in the strided loop below made exp 4.6x slower than Float's.
template <typename Op>
void map_bf16_contiguous(const uint16_t* in, uint16_t* out, int64_t n) {
  alignas(64) float ibuf[kReducedBlock], obuf[kReducedBlock];
  for (int64_t b = 0; b < n; b += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - b);
    load_bf16_contiguous(in + b, ibuf, m);
    map_contiguous<Op>(ibuf, obuf, m);
    store_bf16_contiguous(obuf, out + b, m);
  }
}

/// One inner loop of map_unary: out and in have dtype T (float, double, Half or BFloat16).
template <typename Op, typename T>
void map_loop(char** d, const int64_t* s, int64_t n) {
  using C = compute_t<T>;
  constexpr bool same = std::is_same_v<T, C>;
  constexpr int64_t kT = sizeof(T);
  if constexpr (same) {
    if (s[0] == kT && s[1] == kT) {
      map_contiguous<Op>(reinterpret_cast<const T*>(d[1]), reinterpret_cast<T*>(d[0]), n);
      return;
    }
  }
  if constexpr (std::is_same_v<T, BFloat16>) {
    if (s[0] == kT && s[1] == kT) {
      map_bf16_contiguous<Op>(reinterpret_cast<const uint16_t*>(d[1]),
                              reinterpret_cast<uint16_t*>(d[0]), n);
      return;
    }
  }
  if (s[1] == 0) {
    C x = C(*reinterpret_cast<const T*>(d[1])), r;
    map_contiguous<Op>(&x, &r, 1);
    const T v = T(r);
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(d[0] + i * s[0]) = v;
    return;
  }
  constexpr int64_t kBlock = 256;
  C ibuf[kBlock], obuf[kBlock];
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = std::min(kBlock, n - b);
    const char* pi = d[1] + b * s[1];
    char* po = d[0] + b * s[0];
    const C* src = ibuf;
    if (same && s[1] == kT) {
      src = reinterpret_cast<const C*>(pi);
    } else {
      for (int64_t j = 0; j < m; ++j) ibuf[j] = C(*reinterpret_cast<const T*>(pi + j * s[1]));
    }
    const bool direct = same && s[0] == kT;
    map_contiguous<Op>(src, direct ? reinterpret_cast<C*>(po) : obuf, m);
    if (!direct)
      for (int64_t j = 0; j < m; ++j) *reinterpret_cast<T*>(po + j * s[0]) = T(obuf[j]);
  }
}

#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
/// map_loop over Half data (Note [Reduced floats as float]).
template <typename Op>
void map_loop_reduced(char** d, const int64_t* s, int64_t n) {
  alignas(64) float ibuf[kReducedBlock], obuf[kReducedBlock];
  for (int64_t b = 0; b < n; b += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - b);
    load_half(d[1] + b * s[1], s[1], ibuf, m);
    map_contiguous<Op>(ibuf, obuf, m);
    store_results(true, obuf, sizeof(float), d[0] + b * s[0], s[0], m);
  }
}
#endif

/// Runs Op over a unary iterator whose input and output dtype is T (under Note [Reduced floats as
/// float], T = float also serves Half data).
template <typename Op, typename T>
void map_unary(const TensorIterator& it) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  if constexpr (std::is_same_v<T, float>) {
    if (it.common_dtype() == ScalarType::Half) {
      it.for_each([](char** d, const int64_t* s, int64_t n) { map_loop_reduced<Op>(d, s, n); });
      return;
    }
  }
#endif
  it.for_each([](char** d, const int64_t* s, int64_t n) { map_loop<Op, T>(d, s, n); });
}

}  // namespace brasa::cpu::vec
