#pragma once
// A float exp that vectorises (no libm call), for the softmax and attention kernels. Kernel files
// are compiled once per CPU capability, so it has internal linkage: each build keeps its own copy.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace brasa::cpu {
namespace {  // NOLINT(google-build-namespaces): one copy per capability build, see above

// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln2 / 2, exp(r) by its Taylor series to r^7.
inline float fast_exp(float x) {
  float xc = x < -87.3f ? -87.3f : x;
  xc = xc > 88.7f ? 88.7f : xc;
  // Round to nearest by adding and removing 1.5 * 2^23 (no libm call, so the loop vectorises).
  const float n = (xc * 1.44269504088896341f + 12582912.f) - 12582912.f;
  const float r = (xc - n * 0.693359375f) + n * 2.12194440e-4f;
  float p = 1.f / 5040;
  p = p * r + 1.f / 720;
  p = p * r + 1.f / 120;
  p = p * r + 1.f / 24;
  p = p * r + 1.f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.f;
  p = p * r + 1.f;
  int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  float y = p * scale;
  y = x < -87.3f ? 0.f : y;
  y = x > 88.7f ? std::numeric_limits<float>::infinity() : y;
  return x != x ? x : y;
}
inline float exp_of(float x) { return fast_exp(x); }
inline double exp_of(double x) { return std::exp(x); }

}  // namespace
}  // namespace brasa::cpu
