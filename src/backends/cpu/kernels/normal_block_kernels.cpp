// libtorch 1.13's float Box-Muller block (normal_block_kernels.h).
//
// Note [libtorch's AVX2 normal]
// libtorch's AVX2 build evaluates log and sin/cos with the cephes single-precision polynomials
// (S. L. Moshier's Cephes Math Library, in the vector form of sse_mathfun / avx_mathfun) and GCC
// contracted its multiply-then-add pairs into fused multiply-adds: every Horner step, the three
// Cody-Waite reduction steps, and in log the `y * z + e * q1`, `y - z / 2` and `x + y + e * q2`
// steps, in cos `yc * z - z / 2`. The code below writes each fused step as an explicit fma and is
// compiled with -ffp-contract=off (src/CMakeLists.txt), so that it rounds exactly there and
// nowhere else; matched against live PyTorch bit for bit (tests/ops/test_random_torch.cpp).
#include "backends/cpu/kernels/normal_block_kernels.h"

#include <cmath>

#include "brasa/core/half.h"

#if defined(BRASA_CPU_CAPABILITY_AVX2) || defined(BRASA_CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#define BRASA_NORMAL_BLOCK_AVX2 1
#endif

namespace brasa::cpu::mt {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
// The cephes constants, rounded to float.
constexpr float kSqrtHalf = float(0.707106781186547524);
constexpr float kLogP[9] = {
    float(7.0376836292E-2),  float(-1.1514610310E-1), float(1.1676998740E-1),
    float(-1.2420140846E-1), float(1.4249322787E-1),  float(-1.6668057665E-1),
    float(2.0000714765E-1),  float(-2.4999993993E-1), float(3.3333331174E-1)};
constexpr float kLogQ1 = float(-2.12194440e-4), kLogQ2 = 0.693359375f;
constexpr float kFourOverPi = float(1.27323954473516);
constexpr float kDP1 = -0.78515625f, kDP2 = -2.4187564849853515625e-4f,
                kDP3 = float(-3.77489497744594108e-8);
constexpr float kCos[3] = {float(2.443315711809948E-005), float(-1.388731625493765E-003),
                           float(4.166664568298827E-002)};
constexpr float kSin[3] = {float(-1.9515295891E-4), float(8.3321608736E-3),
                           float(-1.6666654611E-1)};

#if defined(BRASA_NORMAL_BLOCK_AVX2)

inline __m256 log8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 invalid = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OS);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
  __m256i exponent = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
  x = _mm256_or_ps(x, _mm256_set1_ps(0.5f));
  exponent = _mm256_sub_epi32(exponent, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(exponent), one);
  const __m256 below = _mm256_cmp_ps(x, _mm256_set1_ps(kSqrtHalf), _CMP_LT_OS);
  const __m256 extra = _mm256_and_ps(x, below);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, below));
  x = _mm256_add_ps(x, extra);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 y = _mm256_set1_ps(kLogP[0]);
  for (int k = 1; k < 9; ++k) y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(kLogP[k]));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(kLogQ1)));
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  x = _mm256_fmadd_ps(e, _mm256_set1_ps(kLogQ2), _mm256_add_ps(x, y));
  return _mm256_or_ps(x, invalid);
}

inline void sincos8(__m256 x, __m256* s, __m256* c) {
  const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32(int(0x80000000u)));
  __m256 sign_sin = _mm256_and_ps(x, sign);
  x = _mm256_andnot_ps(sign, x);
  __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(kFourOverPi)));
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  const __m256 y = _mm256_cvtepi32_ps(j);
  const __m256 swap_sin =
      _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29));
  const __m256 first_poly = _mm256_castsi256_ps(
      _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(kDP1), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(kDP2), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(kDP3), x);
  const __m256 sign_cos = _mm256_castsi256_ps(_mm256_slli_epi32(
      _mm256_andnot_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4)), 29));
  sign_sin = _mm256_xor_ps(sign_sin, swap_sin);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_fmadd_ps(_mm256_set1_ps(kCos[0]), z, _mm256_set1_ps(kCos[1]));
  yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(kCos[2]));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)));
  yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
  __m256 ys = _mm256_fmadd_ps(_mm256_set1_ps(kSin[0]), z, _mm256_set1_ps(kSin[1]));
  ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(kSin[2]));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  const __m256 sin_from_s = _mm256_and_ps(first_poly, ys);
  const __m256 sin_from_c = _mm256_andnot_ps(first_poly, yc);
  *s = _mm256_xor_ps(_mm256_add_ps(sin_from_c, sin_from_s), sign_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(_mm256_sub_ps(yc, sin_from_c), _mm256_sub_ps(ys, sin_from_s)),
                     sign_cos);
}

void normal_blocks_float(float* data, int64_t blocks, float mean, float std) {
  const __m256 two_pi = _mm256_set1_ps(float(kTwoPi)), one = _mm256_set1_ps(1.0f);
  const __m256 minus_two = _mm256_set1_ps(-2.0f), m = _mm256_set1_ps(mean),
               sd = _mm256_set1_ps(std);
  for (int64_t b = 0; b < blocks; ++b, data += 16) {
    const __m256 u1 = _mm256_sub_ps(one, _mm256_loadu_ps(data));
    const __m256 u2 = _mm256_loadu_ps(data + 8);
    const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(minus_two, log8(u1)));
    __m256 s, c;
    sincos8(_mm256_mul_ps(two_pi, u2), &s, &c);
    _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, c), sd, m));
    _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, s), sd, m));
  }
}

#else  // one lane at a time, the same operations

using ::brasa::detail::bits_to_float;  // half.h
using ::brasa::detail::float_to_bits;

float log1(float x) {
  const bool invalid = x <= 0.0f;
  const float smallest = bits_to_float(0x00800000u);
  x = x > smallest ? x : smallest;
  const int32_t exponent = int32_t(float_to_bits(x) >> 23) - 0x7f;
  x = bits_to_float((float_to_bits(x) & ~0x7f800000u) | float_to_bits(0.5f));
  float e = float(exponent) + 1.0f;
  const bool below = x < kSqrtHalf;
  const float extra = below ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  x = x + extra;
  const float z = x * x;
  float y = kLogP[0];
  for (int k = 1; k < 9; ++k) y = std::fma(y, x, kLogP[k]);
  y = y * x;
  y = std::fma(y, z, e * kLogQ1);
  y = std::fma(-z, 0.5f, y);
  x = std::fma(e, kLogQ2, x + y);
  return invalid ? std::nanf("") : x;
}

void sincos1(float x, float* s, float* c) {
  uint32_t sign_sin = float_to_bits(x) & 0x80000000u;
  x = std::fabs(x);
  const int32_t j = (int32_t(x * kFourOverPi) + 1) & ~1;
  const float y = float(j);
  const uint32_t swap_sin = uint32_t(j & 4) << 29;
  const bool first_poly = (j & 2) == 0;
  x = std::fma(y, kDP1, x);
  x = std::fma(y, kDP2, x);
  x = std::fma(y, kDP3, x);
  const uint32_t sign_cos = uint32_t(~(j - 2) & 4) << 29;
  sign_sin ^= swap_sin;
  const float z = x * x;
  float yc = std::fma(kCos[0], z, kCos[1]);
  yc = std::fma(yc, z, kCos[2]);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  float ys = std::fma(kSin[0], z, kSin[1]);
  ys = std::fma(ys, z, kSin[2]);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  const float sin_from_s = first_poly ? ys : 0.0f, sin_from_c = first_poly ? 0.0f : yc;
  *s = bits_to_float(float_to_bits(sin_from_c + sin_from_s) ^ sign_sin);
  *c = bits_to_float(float_to_bits((yc - sin_from_c) + (ys - sin_from_s)) ^ sign_cos);
}

void normal_blocks_float(float* data, int64_t blocks, float mean, float std) {
  const float two_pi = float(kTwoPi);
  for (int64_t b = 0; b < blocks; ++b, data += 16) {
    for (int j = 0; j < 8; ++j) {
      const float u1 = 1.0f - data[j], u2 = data[j + 8];
      const float radius = std::sqrt(-2.0f * log1(u1));
      float s, c;
      sincos1(two_pi * u2, &s, &c);
      data[j] = std::fma(radius * c, std, mean);
      data[j + 8] = std::fma(radius * s, std, mean);
    }
  }
}

#endif

}  // namespace

BRASA_REGISTER_STUB(normal_blocks_float_stub, normal_blocks_float);

}  // namespace brasa::cpu::mt
