#include "brasa/core/scalar.h"

#include <cmath>
#include <limits>

#include "brasa/core/dispatch_type.h"

namespace brasa {

Scalar Scalar::operator-() const {
  BRASA_CHECK_TYPE(kind_ != Kind::Bool, "Scalar: negation of a bool is not supported");
  if (kind_ == Kind::Complex) return Scalar(complex<double>(-v_.z[0], -v_.z[1]));
  return kind_ == Kind::Double ? Scalar(-v_.d) : Scalar(-v_.i);
}

bool Scalar::equal(const Scalar& o) const {
  if (kind_ == Kind::Complex || o.kind_ == Kind::Complex)
    return toComplexDouble() == o.toComplexDouble();
  if (kind_ == Kind::Double || o.kind_ == Kind::Double) return toDouble() == o.toDouble();
  return v_.i == o.v_.i;
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return os << (s.toBool() ? "true" : "false");
    case Scalar::Kind::Int: return os << s.toLong();
    case Scalar::Kind::Double: return os << s.toDouble();
    case Scalar::Kind::Complex: return os << s.toComplexDouble();
  }
  return os;
}

namespace detail {
void check_scalar_fits(const Scalar& s, ScalarType dtype, const char* op) {
  if (dtype == kBool || s.isBoolean() || is_complex_type(dtype)) return;
  // libtorch: a complex value fits a real dtype only when its imaginary part is zero.
  if (s.isComplex()) {
    BRASA_CHECK(s.toComplexDouble().imag() == 0, op, ": value ", s, " cannot be converted to type ",
                dtype, " without overflow");
    return check_scalar_fits(Scalar(s.toDouble()), dtype, op);
  }
  bool overflows = BRASA_DISPATCH_ALL_TYPES(dtype, op, [&]() -> bool {
    using limits = std::numeric_limits<scalar_t>;
    if constexpr (std::is_same_v<scalar_t, bool>) {
      return false;
    } else if (s.isFloatingPoint()) {
      const double v = s.toDouble();
      if (std::isinf(v)) return !limits::has_infinity;
      if (std::isnan(v)) return !limits::has_quiet_NaN;
      return v < double(limits::lowest()) || v > double(limits::max());
    } else {
      const int64_t v = s.toLong();
      if constexpr (std::is_integral_v<scalar_t> && std::is_unsigned_v<scalar_t>) {
        // negative values wrap (uint8: -1 means 255), down to -max
        return v > int64_t(limits::max()) || (v < 0 && uint64_t(0) - uint64_t(v) > limits::max());
      } else if constexpr (std::is_integral_v<scalar_t>) {
        return v < int64_t(limits::lowest()) || v > int64_t(limits::max());
      } else {
        return double(v) < double(limits::lowest()) || double(v) > double(limits::max());
      }
    }
  });
  BRASA_CHECK(!overflows, op, ": value ", s, " cannot be converted to type ", dtype,
              " without overflow");
}

}  // namespace detail

}  // namespace brasa
