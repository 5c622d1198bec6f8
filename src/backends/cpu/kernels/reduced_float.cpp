// The Half conversions of reduced_float.h, compiled once per CPU capability (F16C instructions in
// the builds that have them).
//
// Note [One home per capability]
// A helper that every kernel file of a capability calls, and that is too large to inline with
// profit, lives in a kernel file of its own, in a namespace named after the capability
// (cap_DEFAULT, cap_AVX2, cap_AVX512), instead of as an inline or anonymous-namespace function in
// a header: each capability build then has one copy instead of one per including file.

#include <cstring>
#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "backends/cpu/reduced_float.h"

namespace brasa::cpu::BRASA_CAP_NS {

/// dst[i] = float(src[i * stride]) for n Half elements; stride in bytes.
void load_half(const char* src, int64_t stride, float* dst, int64_t n) {
  int64_t i = 0;
  if (stride == 2) {
    const uint16_t* s = reinterpret_cast<const uint16_t*>(src);
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(dst + i,
                       _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i))));
#endif
    for (; i < n; ++i) dst[i] = ::brasa::detail::half_bits_to_float(s[i]);
    return;
  }
  for (; i < n; ++i) {
    uint16_t bits;
    std::memcpy(&bits, src + i * stride, 2);
    dst[i] = ::brasa::detail::half_bits_to_float(bits);
  }
}

/// Writes n results from an L1 buffer to dst (stride in bytes): float results rounded to Half
/// (`to_half`), others copied as they are (`itemsize` bytes each: Bool for comparisons).
void store_results(bool to_half, const void* src, int64_t itemsize, char* dst, int64_t stride,
                   int64_t n) {
  if (!to_half) {
    if (stride == itemsize) {
      std::memcpy(dst, src, size_t(n * itemsize));
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * stride, static_cast<const char*>(src) + i * itemsize, size_t(itemsize));
    return;
  }
  const float* f = static_cast<const float*>(src);
  int64_t i = 0;
  if (stride == 2) {
    uint16_t* d = reinterpret_cast<uint16_t*>(dst);
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                       _mm256_cvtps_ph(_mm256_loadu_ps(f + i), _MM_FROUND_TO_NEAREST_INT));
#endif
    for (; i < n; ++i) d[i] = Half(f[i]).x;
    return;
  }
  for (; i < n; ++i) {
    const uint16_t bits = Half(f[i]).x;
    std::memcpy(dst + i * stride, &bits, 2);
  }
}

}  // namespace brasa::cpu::BRASA_CAP_NS
