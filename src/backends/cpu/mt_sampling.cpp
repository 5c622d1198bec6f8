// libtorch 1.13's CPU sampling transforms over an MT19937 stream (Note [libtorch CPU sampling] in
// mt_sampling.h). Compiled once, with -ffp-contract=off (src/CMakeLists.txt): every float
// operation below rounds on its own, and the fused multiply-adds libtorch's build performs are
// written as std::fma.
#include "backends/cpu/mt_sampling.h"

#include <cmath>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels/normal_block_kernels.h"

namespace brasa::cpu::mt {

BRASA_DEFINE_STUB(normal_blocks_float_stub, NormalBlocksFloatKernel);

namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

inline float unit_float(uint32_t w, int bits) {
  return float(w & ((1u << bits) - 1u)) * (1.0f / float(1u << bits));
}
inline double unit_double(uint64_t w) {
  return double(w & ((uint64_t(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
}

void box_muller_16_double(double* data, double mean, double std) {
  for (int j = 0; j < 8; ++j) {
    const double u1 = 1 - data[j], u2 = data[j + 8];
    const double radius = std::sqrt(-2 * std::log(u1));
    const double theta = double(2.0f * kPi) * u2;
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// Half: libtorch stores u1, u2, radius and theta as Half and computes the rest in float.
void box_muller_16_half(Half* data, Half mean, Half std) {
  for (int j = 0; j < 8; ++j) {
    const Half u1 = Half(1.0f - float(data[j]));
    const Half u2 = data[j + 8];
    const Half radius = Half(std::sqrt(-2.0f * std::log(float(u1))));
    const Half theta = Half(float(double(2.0f * kPi) * double(float(u2))));
    data[j] = Half(std::fma(float(radius) * std::cos(float(theta)), float(std), float(mean)));
    data[j + 8] = Half(std::fma(float(radius) * std::sin(float(theta)), float(std), float(mean)));
  }
}

// BFloat16: every operation (log, sqrt, cos, sin, *, +) returns BFloat16 in libtorch.
void box_muller_16_bfloat16(BFloat16* data, BFloat16 mean, BFloat16 std) {
  using B = BFloat16;
  auto mul = [](B a, B b) { return B(float(a) * float(b)); };
  for (int j = 0; j < 8; ++j) {
    const B u1 = B(1.0f - float(data[j]));
    const B u2 = data[j + 8];
    const B radius = B(std::sqrt(float(mul(B(-2.0f), B(std::log(float(u1)))))));
    const B theta = B(float(double(2.0f * kPi) * double(float(u2))));
    data[j] = B(float(mul(mul(radius, B(std::cos(float(theta)))), std)) + float(mean));
    data[j + 8] = B(float(mul(mul(radius, B(std::sin(float(theta)))), std)) + float(mean));
  }
}

// libtorch's block form: all uniforms first, blocks of 16, and a redrawn last block when 16 does
// not divide n.
template <typename T, typename Draw, typename Transform>
void block_normal(T* data, int64_t n, const Draw& draw, const Transform& transform) {
  for (int64_t i = 0; i < n; ++i) data[i] = draw();
  for (int64_t i = 0; i + 16 <= n; i += 16) transform(data + i);
  if (n % 16 != 0) {
    T* tail = data + n - 16;
    for (int k = 0; k < 16; ++k) tail[k] = draw();
    transform(tail);
  }
}

}  // namespace

void uniform_float(MT19937& e, float* out, int64_t n, int bits, float from, float range) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::fma(unit_float(e.next32(), bits), range, from);
}

void uniform_double(MT19937& e, double* out, int64_t n, double from, double to) {
  const double range = to - from;
  for (int64_t i = 0; i < n; ++i) out[i] = std::fma(unit_double(e.next64()), range, from);
}

void normal_serial(GeneratorImpl& g, double* out, int64_t n, double mean, double std) {
  MT19937& e = g.engine();
  std::optional<double>& cached = g.next_double_normal();
  for (int64_t i = 0; i < n; ++i) {
    double z;
    if (cached) {
      z = *cached;
      cached.reset();
    } else {
      const double u1 = unit_double(e.next64()), u2 = unit_double(e.next64());
      const double r = std::sqrt(-2.0 * std::log(1.0 - u2)), theta = 2.0 * kPi * u1;
      cached = r * std::sin(theta);
      z = r * std::cos(theta);
    }
    out[i] = std::fma(z, std, mean);
  }
}

void normal_fill_float(MT19937& e, float* data, int64_t n, float mean, float std) {
  for (int64_t i = 0; i < n; ++i) data[i] = unit_float(e.next32(), 24);
  normal_blocks_float_stub(data, n / 16, mean, std);
  if (n % 16 != 0) {
    float* tail = data + n - 16;
    for (int k = 0; k < 16; ++k) tail[k] = unit_float(e.next32(), 24);
    normal_blocks_float_stub(tail, 1, mean, std);
  }
}

void normal_fill_double(MT19937& e, double* data, int64_t n, double mean, double std) {
  block_normal(
      data, n, [&] { return unit_double(e.next64()); },
      [&](double* d) { box_muller_16_double(d, mean, std); });
}

void normal_fill_half(MT19937& e, Half* data, int64_t n, Half mean, Half std) {
  block_normal(
      data, n, [&] { return Half(unit_float(e.next32(), 11)); },
      [&](Half* d) { box_muller_16_half(d, mean, std); });
}

void normal_fill_bfloat16(MT19937& e, BFloat16* data, int64_t n, BFloat16 mean, BFloat16 std) {
  block_normal(
      data, n, [&] { return BFloat16(unit_float(e.next32(), 8)); },
      [&](BFloat16* d) { box_muller_16_bfloat16(d, mean, std); });
}

void bernoulli_scalar(MT19937& e, uint8_t* out, int64_t n, double p) {
  for (int64_t i = 0; i < n; ++i) out[i] = unit_double(e.next64()) < p;
}

void bernoulli_tensor(MT19937& e, uint8_t* out, int64_t n, const double* p) {
  for (int64_t i = 0; i < n; ++i) out[i] = unit_double(e.next64()) < p[i];
}

void bernoulli_tensor(MT19937& e, uint8_t* out, int64_t n, const float* p) {
  for (int64_t i = 0; i < n; ++i) out[i] = unit_float(e.next32(), 24) < p[i];
}

void random_from_to(MT19937& e, int64_t* out, int64_t n, uint64_t range, int64_t from, bool wide) {
  if (wide) {
    for (int64_t i = 0; i < n; ++i) out[i] = int64_t(e.next64() % range + uint64_t(from));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = int64_t(e.next32() % range + uint64_t(from));
  }
}

void randperm(MT19937& e, int64_t* out, int64_t n) {
  if (n < int64_t(UINT32_MAX / 20)) {
    for (int64_t i = 0; i < n; ++i) out[i] = i;
    for (int64_t i = 0; i + 1 < n; ++i) {
      const int64_t z = int64_t(e.next32() % uint64_t(n - i));
      std::swap(out[i], out[z + i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {  // inside-out: 32-bit draws would skew the modulo
    const int64_t z = int64_t(e.next64() % uint64_t(i + 1));
    out[i] = out[z];
    out[z] = i;
  }
}

void uniform53(MT19937& e, double* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = unit_double(e.next64());
}

void exponential(MT19937& e, double* out, int64_t n, double lambda) {
  for (int64_t i = 0; i < n; ++i) out[i] = -1.0 / lambda * std::log(1.0 - unit_double(e.next64()));
}

void geometric(MT19937& e, double* out, int64_t n, double p) {
  const double denom = std::log1p(-p);
  for (int64_t i = 0; i < n; ++i) out[i] = std::ceil(std::log(unit_double(e.next64())) / denom);
}

}  // namespace brasa::cpu::mt
