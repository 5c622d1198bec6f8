// Loops of the random family. Draw rules: Note [Random reproducibility] in random_kernels.h.
// Compiled for DEFAULT and AVX2: the AVX2 build is 10-30% faster than DEFAULT, the AVX-512 one
// measured no faster than AVX2 (bench/capability_bench.py; Note [Capability builds per file] in
// cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_UP_TO_AVX2
#include "backends/cpu/kernels/random_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using ops::PhiloxRange;

constexpr int64_t kBlockGrain = 4096;
constexpr double kTwoPi = 6.283185307179586476925286766559;

// Calls f(block, first_element, lanes) for every Philox block covering n elements, kPer per block.
template <int64_t kPer, typename F>
void for_each_block(int64_t n, PhiloxRange r, const F& f) {
  const int64_t blocks = (n + kPer - 1) / kPer;
  parallel_for(0, blocks, kBlockGrain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      Philox4x32 p(r.seed, r.offset + uint64_t(b));
      const int64_t i = b * kPer;
      f(p, i, static_cast<int>(std::min<int64_t>(kPer, n - i)));
    }
  });
}

inline uint64_t word64(const Philox4x32& p, int lane) {
  return (uint64_t(p.out[2 * lane]) << 32) | p.out[2 * lane + 1];
}
// [0, 1) from the top `bits` bits of a 32-bit word, and from 53 bits of a 64-bit draw.
template <int bits>
inline float unit_float(uint32_t w) {
  return float(w >> (32 - bits)) * (1.0f / float(1u << bits));
}
inline double unit_double(uint64_t w) { return double(w >> 11) * (1.0 / 9007199254740992.0); }

template <typename T>
constexpr int mantissa_bits() {
  if constexpr (std::is_same_v<T, Half>)
    return 11;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return 8;
  else
    return 24;
}

void uniform_kernel(void* data, ScalarType dt, int64_t n, PhiloxRange r, double from, double to) {
  BRASA_DISPATCH_FLOATING_TYPES(dt, "uniform_", [&] {
    scalar_t* out = static_cast<scalar_t*>(data);
    if constexpr (std::is_same_v<scalar_t, double>) {
      const double range = to - from;
      const double below = from < to ? std::nextafter(to, from) : to;
      for_each_block<2>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
        for (int j = 0; j < lanes; ++j)
          out[i + j] = std::min(from + range * unit_double(word64(p, j)), below);
      });
    } else {
      constexpr int bits = mantissa_bits<scalar_t>();
      const float f = float(from), range = float(to - from);
      // float rounding of from + range * u can reach `to`; keep the range half-open.
      const float below = from < to ? std::nextafter(float(to), f) : float(to);
      for_each_block<4>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
        for (int j = 0; j < lanes; ++j)
          out[i + j] = scalar_t(std::min(f + range * unit_float<bits>(p.out[j]), below));
      });
    }
  });
}

void normal_kernel(void* data, ScalarType dt, int64_t n, PhiloxRange r, double mean, double std) {
  BRASA_DISPATCH_FLOATING_TYPES(dt, "normal_", [&] {
    scalar_t* out = static_cast<scalar_t*>(data);
    if constexpr (std::is_same_v<scalar_t, double>) {
      for_each_block<2>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
        const double u1 = 1.0 - unit_double(word64(p, 0));  // (0, 1]: log stays finite
        const double u2 = unit_double(word64(p, 1));
        const double radius = std::sqrt(-2.0 * std::log(u1)), theta = kTwoPi * u2;
        out[i] = mean + std * radius * std::cos(theta);
        if (lanes > 1) out[i + 1] = mean + std * radius * std::sin(theta);
      });
    } else {
      const float m = float(mean), s = float(std);
      for_each_block<4>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
        float z[4];
        for (int k = 0; k < 4; k += 2) {
          const float u1 = 1.0f - unit_float<24>(p.out[k]);
          const float u2 = unit_float<24>(p.out[k + 1]);
          const float radius = std::sqrt(-2.0f * std::log(u1)), theta = float(kTwoPi) * u2;
          z[k] = radius * std::cos(theta);
          z[k + 1] = radius * std::sin(theta);
        }
        for (int j = 0; j < lanes; ++j) out[i + j] = scalar_t(m + s * z[j]);
      });
    }
  });
}

void bernoulli_kernel(void* data, ScalarType dt, int64_t n, PhiloxRange r, double prob) {
  BRASA_DISPATCH_ALL_TYPES(dt, "bernoulli_", [&] {
    scalar_t* out = static_cast<scalar_t*>(data);
    const scalar_t one = scalar_t(1), zero = scalar_t(0);
    for_each_block<4>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
      for (int j = 0; j < lanes; ++j)
        out[i + j] = double(p.out[j]) * (1.0 / 4294967296.0) < prob ? one : zero;
    });
  });
}

void random_from_to_kernel(void* data, ScalarType dt, int64_t n, PhiloxRange r, int64_t from,
                           uint64_t range) {
  BRASA_DISPATCH_ALL_TYPES(dt, "random_", [&] {
    scalar_t* out = static_cast<scalar_t*>(data);
    for_each_block<2>(n, r, [&](const Philox4x32& p, int64_t i, int lanes) {
      for (int j = 0; j < lanes; ++j) {
        const int64_t v = int64_t(uint64_t(from) + word64(p, j) % range);
        if constexpr (std::is_same_v<scalar_t, bool>)
          out[i + j] = v != 0;
        else if constexpr (std::is_integral_v<scalar_t>)
          out[i + j] = static_cast<scalar_t>(v);
        else
          out[i + j] = scalar_t(static_cast<opmath_t<scalar_t>>(v));
      }
    });
  });
}

void randperm_kernel(void* data, ScalarType dt, int64_t n, PhiloxRange r) {
  BRASA_DISPATCH_NUMERIC_TYPES(dt, "randperm", [&] {
    scalar_t* out = static_cast<scalar_t*>(data);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) perm[i] = i;
    // Swap k (k = 0..n-2) places position n-1-k using the k-th 64-bit draw.
    Philox4x32 p(r.seed, r.offset);
    for (int64_t k = 0; k + 1 < n; ++k) {
      if (k % 2 == 0 && k > 0) p = Philox4x32(r.seed, r.offset + uint64_t(k / 2));
      const int64_t i = n - 1 - k;
      const int64_t j = int64_t(word64(p, int(k % 2)) % uint64_t(i + 1));
      std::swap(perm[i], perm[j]);
    }
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<scalar_t>)
        out[i] = static_cast<scalar_t>(perm[i]);
      else
        out[i] = scalar_t(static_cast<opmath_t<scalar_t>>(perm[i]));
    }
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::uniform_stub, uniform_kernel);
BRASA_REGISTER_STUB(ops::normal_stub, normal_kernel);
BRASA_REGISTER_STUB(ops::bernoulli_stub, bernoulli_kernel);
BRASA_REGISTER_STUB(ops::random_from_to_stub, random_from_to_kernel);
BRASA_REGISTER_STUB(ops::randperm_stub, randperm_kernel);

}  // namespace brasa::cpu
