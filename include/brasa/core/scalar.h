#pragma once
// Scalar: a number from C++ code (bool, integer or floating), kept with its kind so that type
// promotion can treat it like a Python scalar (it does not widen a tensor's dtype within its
// category).

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"

namespace brasa {

class BRASA_API Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double };

  Scalar() : Scalar(int64_t(0)) {}
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(Kind::Int) {  // NOLINT
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Double) {  // NOLINT
    v_.d = static_cast<double>(v);
  }
  Scalar(bool v) : kind_(Kind::Bool) { v_.i = v; }  // NOLINT
  Scalar(Half v) : Scalar(double(float(v))) {}      // NOLINT
  Scalar(BFloat16 v) : Scalar(double(float(v))) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool isFloatingPoint() const { return kind_ == Kind::Double; }
  bool isIntegral(bool include_bool) const {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  /// The dtype a tensor made from this scalar gets: Bool, Long, or Double.
  ScalarType type() const {
    return kind_ == Kind::Bool ? kBool : kind_ == Kind::Int ? kLong : kDouble;
  }

  template <typename T>
  T to() const {
    if (kind_ == Kind::Double) return static_cast<T>(v_.d);
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
      return T(static_cast<float>(v_.i));
    else
      return static_cast<T>(v_.i);
  }
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int toInt() const { return to<int>(); }
  bool toBool() const { return kind_ == Kind::Double ? v_.d != 0 : v_.i != 0; }
  Scalar operator-() const;
  bool equal(const Scalar& o) const;

 private:
  Kind kind_;
  union {
    int64_t i;
    double d;
  } v_;
};

BRASA_API std::ostream& operator<<(std::ostream& os, const Scalar& s);

namespace detail {
/// Throws ValueError "op: value 300 cannot be converted to type Byte without overflow" when `s`
/// does not fit `dtype` (NaN never fits an integral dtype; unsigned dtypes accept negative values
/// down to -max, which wrap; Bool accepts anything).
BRASA_API void check_scalar_fits(const Scalar& s, ScalarType dtype, const char* op);
}  // namespace detail

}  // namespace brasa
