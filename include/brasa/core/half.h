#pragma once
// Half (IEEE binary16) and BFloat16 storage types. Arithmetic happens in float: both convert
// implicitly to and from float, rounding to nearest even on the way down.

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

namespace brasa {

namespace detail {
inline float bits_to_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint32_t float_to_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float half_bits_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | (mant << 13));  // inf / nan
  if (exp == 0) {
    if (mant == 0) return bits_to_float(sign);
    float f = float(mant) * (1.0f / 16777216.0f);  // subnormal: mant * 2^-24
    return sign ? -f : f;
  }
  return bits_to_float(sign | ((exp + 112) << 23) | (mant << 13));
}
inline uint16_t float_to_half_bits(float f) {
  uint32_t x = float_to_bits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return sign | (ax > 0x7f800000u ? 0x7e00 : 0x7c00);
  if (ax >= 0x477ff000u) return sign | 0x7c00;  // rounds to inf
  if (ax < 0x38800000u) {                       // subnormal or zero in half
    float v = bits_to_float(ax) * 16777216.0f;  // scale by 2^24; round to nearest even
    return sign | uint16_t(__builtin_lrintf(v));
  }
  uint32_t mant_odd = (ax >> 13) & 1;
  ax += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round to nearest even
  return sign | uint16_t(ax >> 13);
}
}  // namespace detail

struct Half {
  uint16_t x = 0;
  struct from_bits_t {};
  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  Half(float f) : x(detail::float_to_half_bits(f)) {}               // NOLINT
  operator float() const { return detail::half_bits_to_float(x); }  // NOLINT
};

struct BFloat16 {
  uint16_t x = 0;
  struct from_bits_t {};
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  BFloat16(float f) {  // NOLINT
    uint32_t b = detail::float_to_bits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) {
      x = 0x7fc0;
      return;
    }
    b += 0x7fffu + ((b >> 16) & 1);  // round to nearest even
    x = uint16_t(b >> 16);
  }
  operator float() const { return detail::bits_to_float(uint32_t(x) << 16); }  // NOLINT
};

inline std::ostream& operator<<(std::ostream& os, Half h) { return os << float(h); }
inline std::ostream& operator<<(std::ostream& os, BFloat16 h) { return os << float(h); }

}  // namespace brasa

namespace std {
template <>
class numeric_limits<brasa::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr int digits = 11;
  static brasa::Half lowest() { return {0xfbff, brasa::Half::from_bits_t{}}; }
  static brasa::Half max() { return {0x7bff, brasa::Half::from_bits_t{}}; }
  static brasa::Half min() { return {0x0400, brasa::Half::from_bits_t{}}; }
  static brasa::Half epsilon() { return {0x1400, brasa::Half::from_bits_t{}}; }
  static brasa::Half infinity() { return {0x7c00, brasa::Half::from_bits_t{}}; }
  static brasa::Half quiet_NaN() { return {0x7e00, brasa::Half::from_bits_t{}}; }
  static brasa::Half signaling_NaN() { return {0x7d00, brasa::Half::from_bits_t{}}; }
};
template <>
class numeric_limits<brasa::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr int digits = 8;
  static brasa::BFloat16 lowest() { return {0xff7f, brasa::BFloat16::from_bits_t{}}; }
  static brasa::BFloat16 max() { return {0x7f7f, brasa::BFloat16::from_bits_t{}}; }
  static brasa::BFloat16 min() { return {0x0080, brasa::BFloat16::from_bits_t{}}; }
  static brasa::BFloat16 epsilon() { return {0x3c00, brasa::BFloat16::from_bits_t{}}; }
  static brasa::BFloat16 infinity() { return {0x7f80, brasa::BFloat16::from_bits_t{}}; }
  static brasa::BFloat16 quiet_NaN() { return {0x7fc0, brasa::BFloat16::from_bits_t{}}; }
  // float's signaling NaN (0x7fa00000) cut to its top half; libtorch's 0x7f80 is infinity.
  static brasa::BFloat16 signaling_NaN() { return {0x7fa0, brasa::BFloat16::from_bits_t{}}; }
};
}  // namespace std
