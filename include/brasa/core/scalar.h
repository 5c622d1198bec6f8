#pragma once
// Scalar: a number from C++ code (bool, integer, floating or complex), kept with its kind so that
// type promotion can treat it like a Python scalar (it does not widen a tensor's dtype within its
// category).

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"

namespace brasa {

class BRASA_API Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double, Complex };

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
  template <typename T>
  Scalar(complex<T> v) : kind_(Kind::Complex) {  // NOLINT
    v_.z[0] = static_cast<double>(v.real());
    v_.z[1] = static_cast<double>(v.imag());
  }
  template <typename T>
  Scalar(std::complex<T> v) : Scalar(complex<T>(v)) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool isFloatingPoint() const { return kind_ == Kind::Double; }
  bool isIntegral(bool include_bool) const {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool isBoolean() const { return kind_ == Kind::Bool; }
  bool isComplex() const { return kind_ == Kind::Complex; }
  /// The dtype a tensor made from this scalar gets: Bool, Long, Double or ComplexDouble.
  ScalarType type() const {
    return kind_ == Kind::Bool     ? kBool
           : kind_ == Kind::Int    ? kLong
           : kind_ == Kind::Double ? kDouble
                                   : kComplexDouble;
  }

  /// The value as T; a complex value converted to a real type keeps its real part.
  template <typename T>
  T to() const {
    if constexpr (is_complex_v<T>) {
      using R = typename T::value_type;
      if (kind_ == Kind::Complex) return T(R(v_.z[0]), R(v_.z[1]));
      return T(to<R>(), R(0));
    } else {
      if (kind_ == Kind::Complex) return Scalar(v_.z[0]).to<T>();
      return to_real<T>();
    }
  }
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int toInt() const { return to<int>(); }
  complex<float> toComplexFloat() const { return to<complex<float>>(); }
  complex<double> toComplexDouble() const { return to<complex<double>>(); }
  bool toBool() const {
    return kind_ == Kind::Double    ? v_.d != 0
           : kind_ == Kind::Complex ? (v_.z[0] != 0 || v_.z[1] != 0)
                                    : v_.i != 0;
  }
  Scalar operator-() const;
  /// The complex conjugate; a real value is returned unchanged.
  Scalar conj() const {
    return kind_ == Kind::Complex ? Scalar(complex<double>(v_.z[0], -v_.z[1])) : *this;
  }
  bool equal(const Scalar& o) const;

 private:
  template <typename T>
  T to_real() const {
    if (kind_ == Kind::Double) return static_cast<T>(v_.d);
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
      return T(static_cast<float>(v_.i));
    else
      return static_cast<T>(v_.i);
  }

  Kind kind_;
  union {
    int64_t i;
    double d;
    double z[2];
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
