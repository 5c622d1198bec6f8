#pragma once
// complex<T>: the element type of the ComplexFloat and ComplexDouble dtypes (c10::complex<T> in
// libtorch spelling). Layout is two T's, real first, aligned to 2 * sizeof(T) like c10::complex,
// so a ComplexFloat tensor's storage is the interleaved float pairs view_as_real exposes.

#include <cmath>
#include <complex>
#include <ostream>
#include <type_traits>

namespace brasa {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  static_assert(std::is_floating_point_v<T>, "complex<T>: T must be float or double");
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}  // NOLINT
  /// complex<float> <-> complex<double>: widening is implicit, narrowing explicit (as in c10).
  template <typename U, std::enable_if_t<!std::is_same_v<U, T>, int> = 0>
  explicit constexpr complex(const complex<U>& o) : real_(T(o.real())), imag_(T(o.imag())) {}
  constexpr complex(const std::complex<T>& o) : real_(o.real()), imag_(o.imag()) {}  // NOLINT
  explicit constexpr operator std::complex<T>() const { return {real_, imag_}; }
  /// Like c10::complex: true when either part is nonzero.
  explicit constexpr operator bool() const { return real_ != T(0) || imag_ != T(0); }

  constexpr T real() const { return real_; }
  constexpr void real(T v) { real_ = v; }
  constexpr T imag() const { return imag_; }
  constexpr void imag(T v) { imag_ = v; }

  constexpr complex& operator=(T re) {
    real_ = re;
    imag_ = T(0);
    return *this;
  }
  constexpr complex& operator+=(const complex& o) {
    real_ += o.real_;
    imag_ += o.imag_;
    return *this;
  }
  constexpr complex& operator-=(const complex& o) {
    real_ -= o.real_;
    imag_ -= o.imag_;
    return *this;
  }
  constexpr complex& operator*=(const complex& o) {
    const T re = real_ * o.real_ - imag_ * o.imag_;
    imag_ = real_ * o.imag_ + imag_ * o.real_;
    real_ = re;
    return *this;
  }
  // Smith's method: divide by the larger of |c| and |d| first so that c^2 + d^2 cannot overflow
  // (numpy and PyTorch divide the same way, so results agree to the last bit).
  complex& operator/=(const complex& o) {
    const T a = real_, b = imag_, c = o.real_, d = o.imag_;
    if (std::abs(c) >= std::abs(d)) {
      if (c == T(0) && d == T(0)) {
        real_ = a / std::abs(c);
        imag_ = b / std::abs(d);
      } else {
        const T r = d / c, den = c + d * r;
        real_ = (a + b * r) / den;
        imag_ = (b - a * r) / den;
      }
    } else {
      const T r = c / d, den = d + c * r;
      real_ = (a * r + b) / den;
      imag_ = (b * r - a) / den;
    }
    return *this;
  }
  constexpr complex& operator+=(T v) {
    real_ += v;
    return *this;
  }
  constexpr complex& operator-=(T v) {
    real_ -= v;
    return *this;
  }
  constexpr complex& operator*=(T v) {
    real_ *= v;
    imag_ *= v;
    return *this;
  }
  constexpr complex& operator/=(T v) {
    real_ /= v;
    imag_ /= v;
    return *this;
  }
};

template <typename T>
constexpr complex<T> operator+(const complex<T>& z) {
  return z;
}
template <typename T>
constexpr complex<T> operator-(const complex<T>& z) {
  return {-z.real(), -z.imag()};
}
#define BRASA_COMPLEX_BINARY_OPERATOR(op)                               \
  template <typename T>                                                 \
  constexpr complex<T> operator op(complex<T> a, const complex<T>& b) { \
    return a op## = b;                                                  \
  }                                                                     \
  template <typename T>                                                 \
  constexpr complex<T> operator op(complex<T> a, const T& b) {          \
    return a op## = b;                                                  \
  }                                                                     \
  template <typename T>                                                 \
  constexpr complex<T> operator op(const T& a, const complex<T>& b) {   \
    return complex<T>(a) op## = b;                                      \
  }
BRASA_COMPLEX_BINARY_OPERATOR(+)
BRASA_COMPLEX_BINARY_OPERATOR(-)
BRASA_COMPLEX_BINARY_OPERATOR(*)
BRASA_COMPLEX_BINARY_OPERATOR(/)
#undef BRASA_COMPLEX_BINARY_OPERATOR

template <typename T>
constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <typename T>
constexpr bool operator==(const complex<T>& a, const T& b) {
  return a.real() == b && a.imag() == T(0);
}
template <typename T>
constexpr bool operator==(const T& a, const complex<T>& b) {
  return b == a;
}
template <typename T>
constexpr bool operator!=(const complex<T>& a, const complex<T>& b) {
  return !(a == b);
}
template <typename T>
constexpr bool operator!=(const complex<T>& a, const T& b) {
  return !(a == b);
}
template <typename T>
constexpr bool operator!=(const T& a, const complex<T>& b) {
  return !(a == b);
}

/// "(1,2)", as std::complex and c10::complex print.
template <typename T>
std::ostream& operator<<(std::ostream& os, const complex<T>& z) {
  return os << std::complex<T>(z);
}

// Free functions found by argument-dependent lookup (abs(z), conj(z), ...).
template <typename T>
constexpr T real(const complex<T>& z) {
  return z.real();
}
template <typename T>
constexpr T imag(const complex<T>& z) {
  return z.imag();
}
template <typename T>
T abs(const complex<T>& z) {
  return std::hypot(z.real(), z.imag());
}
template <typename T>
T arg(const complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
template <typename T>
constexpr T norm(const complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <typename T>
constexpr complex<T> conj(const complex<T>& z) {
  return {z.real(), -z.imag()};
}
template <typename T>
complex<T> polar(const T& r, const T& theta = T()) {
  return {r * std::cos(theta), r * std::sin(theta)};
}
template <typename T>
complex<T> exp(const complex<T>& z) {
  return complex<T>(std::exp(std::complex<T>(z)));
}
template <typename T>
complex<T> log(const complex<T>& z) {
  return complex<T>(std::log(std::complex<T>(z)));
}
template <typename T>
complex<T> sqrt(const complex<T>& z) {
  return complex<T>(std::sqrt(std::complex<T>(z)));
}
template <typename T>
complex<T> pow(const complex<T>& z, const complex<T>& w) {
  return complex<T>(std::pow(std::complex<T>(z), std::complex<T>(w)));
}

template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<complex<T>> : std::true_type {};
template <typename T>
constexpr bool is_complex_v = is_complex<T>::value;

}  // namespace brasa

// Note [std overloads for complex]
// libtorch programs call std::abs(z), std::arg(z), std::conj(z) ... on c10::complex, which c10
// declares in namespace std; brasa::complex offers the same spellings, forwarding to the functions
// above.
namespace std {
#define BRASA_COMPLEX_STD_FORWARD(name)     \
  template <typename T>                     \
  auto name(const ::brasa::complex<T>& z) { \
    return ::brasa::name(z);                \
  }
BRASA_COMPLEX_STD_FORWARD(real)
BRASA_COMPLEX_STD_FORWARD(imag)
BRASA_COMPLEX_STD_FORWARD(abs)
BRASA_COMPLEX_STD_FORWARD(arg)
BRASA_COMPLEX_STD_FORWARD(norm)
BRASA_COMPLEX_STD_FORWARD(conj)
BRASA_COMPLEX_STD_FORWARD(exp)
BRASA_COMPLEX_STD_FORWARD(log)
BRASA_COMPLEX_STD_FORWARD(sqrt)
#undef BRASA_COMPLEX_STD_FORWARD
}  // namespace std
