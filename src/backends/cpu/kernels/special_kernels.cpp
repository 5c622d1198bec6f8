// Loops of the special-function family (special_kernels.h). Every function is evaluated in double
// (float, Half and BFloat16 inputs are converted and the result rounded once), with std:: functions
// where C++ has them and series written here otherwise. Compiled for DEFAULT only: these are scalar
// loops that wider vectors do not speed up (Note [Capability builds per file] in
// cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#include "backends/cpu/kernels/special_kernels.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>

#include "backends/cpu/loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

// nextafter for Half/BFloat16: the neighbouring bit pattern towards b.
template <typename T>
T next_reduced(T a, T b) {
  const float fa = float(a), fb = float(b);
  if (std::isnan(fa) || std::isnan(fb)) return T(std::numeric_limits<float>::quiet_NaN());
  if (fa == fb) return b;
  uint16_t bits = std::bit_cast<uint16_t>(a);
  if (fa == 0) {
    bits = uint16_t(fb > 0 ? 1 : 0x8001);
  } else if ((fa < fb) == (fa > 0)) {
    ++bits;
  } else {
    --bits;
  }
  return std::bit_cast<T>(bits);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

// ---- digamma ----
// Reflection for negative x, the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the
// asymptotic series ln x - 1/(2x) - sum B_2k / (2k x^2k).
double digamma(double x) {
  if (std::isnan(x)) return x;
  if (x == 0) return std::copysign(kInf, -x);
  if (x < 0) {
    if (x == std::floor(x)) return kNaN;
    return digamma(1 - x) - kPi / std::tan(kPi * x);
  }
  double shift = 0;
  while (x < 10) {
    shift += 1 / x;
    x += 1;
  }
  if (std::isinf(x)) return x;
  const double z = 1 / (x * x);
  const double tail =
      z * (1.0 / 12 - z * (1.0 / 120 -
                           z * (1.0 / 252 -
                                z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return std::log(x) - 0.5 / x - tail - shift;
}

// ---- Hurwitz zeta(s, q) = sum_k (q + k)^-s ----
// The first terms summed directly until q + N >= 10, the rest by Euler-Maclaurin: the integral,
// half the first left-out term and Bernoulli corrections B_2j / (2j)! * s (s+1) ... (s+2j-2) *
// a^(-s-2j+1). Conventions of PyTorch (Cephes): s == 1 gives inf, s < 1 NaN, a non-positive
// integer q inf, and a negative q NaN unless s is an integer.
double zeta(double s, double q) {
  if (s == 1) return kInf;
  if (s < 1) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;
    if (s != std::floor(s)) return kNaN;
  }
  constexpr double kBernoulli[] = {1.0 / 12,         -1.0 / 720,     1.0 / 30240,
                                   -1.0 / 1209600,   1.0 / 47900160, -691.0 / 1307674368000,
                                   1.0 / 74724249600};
  double sum = 0, a = q;
  int n = 0;
  while (a < 10 || n < 9) {
    const double term = std::pow(a, -s);
    sum += term;
    a += 1;
    ++n;
    // Strictly below, so that an all-zero start (q = inf, or s = inf with q > 1) ends as NaN, as
    // in PyTorch.
    if (std::fabs(term) < 1e-17 * std::fabs(sum)) return sum;
  }
  const double first = std::pow(a, -s);
  sum += a * first / (s - 1) + 0.5 * first;
  double factor = s / a * first;  // s (s+1) ... (s+2j-2) a^(-s-2j+1), j = 1
  for (int j = 0; j < 7; ++j) {
    const double term = kBernoulli[j] * factor;
    sum += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum)) break;
    factor *= (s + 2 * j + 1) * (s + 2 * j + 2) / (a * a);
  }
  return sum;
}

// ---- modified Bessel functions I0, I1 (and scaled by exp(-|x|)) ----
// The power series sum (x/2)^(2k+nu) / (k! (k+nu)!) (all terms positive, so no cancellation) for
// |x| <= 30, the asymptotic series exp(x) / sqrt(2 pi x) * sum_k (-1)^k prod (4 nu^2 - (2i-1)^2) /
// (k! (8x)^k) beyond.
constexpr double kAsymptoticFrom = 30;
double bessel_series(double x, int nu) {
  const double h = 0.5 * x, h2 = h * h;
  double term = nu == 0 ? 1.0 : h, sum = term;
  for (int k = 1; k < 500; ++k) {
    term *= h2 / (double(k) * double(k + nu));
    sum += term;
    if (term <= 1e-17 * sum) break;
  }
  return sum;
}
// exp(-x) I_nu(x) for x >= kAsymptoticFrom.
double bessel_scaled_asymptotic(double x, int nu) {
  const double mu = 4.0 * nu * nu;
  double term = 1, sum = 1;
  for (int k = 1; k < 40; ++k) {
    const double next = -term * (mu - double(2 * k - 1) * double(2 * k - 1)) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term)) break;
    term = next;
    sum += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum)) break;
  }
  return sum / std::sqrt(2 * kPi * x);
}
// I_nu(|x|), or exp(-|x|) I_nu(|x|) when scaled.
double bessel_i(double x, int nu, bool scaled) {
  const double a = std::fabs(x);
  if (std::isnan(a)) return a;
  if (a >= kAsymptoticFrom) {
    if (std::isinf(a)) return scaled ? 0.0 : kNaN;  // PyTorch's (Cephes') value at +-inf
    const double s = bessel_scaled_asymptotic(a, nu);
    return scaled ? s : (a > 700 ? s * std::exp(a / 2) * std::exp(a / 2) : s * std::exp(a));
  }
  const double s = bessel_series(a, nu);
  return scaled ? s * std::exp(-a) : s;
}
double i0(double x) { return bessel_i(x, 0, false); }
double i0e(double x) { return bessel_i(x, 0, true); }
double i1(double x) { return std::copysign(bessel_i(x, 1, false), x); }
double i1e(double x) { return std::copysign(bessel_i(x, 1, true), x); }

// ---- ndtri: the inverse of the standard normal CDF ----
// For p <= 1/2: a rational first guess (Abramowitz & Stegun 26.2.23, error < 4.5e-4), then Newton
// steps on log(ndtr(x)) = log(p), with ndtr(x) = erfc(-x / sqrt 2) / 2 accurate in the lower tail.
// p > 1/2 by symmetry (1 - p is exact there).
double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  if (p > 0.5) return -ndtri(1 - p);
  const double t = std::sqrt(-2 * std::log(p));
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  const double log_p = std::log(p);
  for (int step = 0; step < 8; ++step) {
    const double cdf = 0.5 * std::erfc(-x * std::numbers::sqrt2 / 2);
    const double pdf = std::exp(-0.5 * x * x) / std::sqrt(2 * kPi);
    const double dx = (std::log(cdf) - log_p) * cdf / pdf;
    x -= dx;
    if (std::fabs(dx) <= 1e-15 * std::fabs(x)) break;
  }
  return x;
}

// ---- erfcx(x) = exp(x^2) erfc(x) ----
// Directly while erfc(x) is a normal number; the asymptotic series 1/(x sqrt pi) * sum (-1)^k
// (2k-1)!! / (2x^2)^k beyond.
double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0;
  const double z = 1 / (2 * x * x);
  double term = 1, sum = 1;
  for (int k = 1; k < 8; ++k) {
    term *= -(2 * k - 1) * z;
    sum += term;
  }
  return sum / (x * std::sqrt(kPi));
}

// ---- regularized incomplete gamma P(a, x) and Q(a, x) ----
// The series e^-x x^a / Gamma(a+1) * sum x^n / ((a+1)...(a+n)) for x < a + 1, the continued
// fraction of Q (modified Lentz) otherwise. Conventions of PyTorch (Cephes): NaN for a < 0 or
// x < 0, and for a == x == 0 or a, x both infinite.
double igamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 2000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum)) break;
  }
  return sum * std::exp(a * std::log(x) - x - std::lgamma(a));
}
double igammac_fraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int i = 1; i < 2000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) <= 1e-16) break;
  }
  return std::exp(a * std::log(x) - x - std::lgamma(a)) * h;
}
// P(a, x) when lower, Q(a, x) otherwise. The checks in PyTorch's order, so that a NaN `a` with
// x == 0 or x == inf gives 0 or 1 as there.
double incomplete_gamma(double a, double x, bool lower) {
  if (a < 0 || x < 0) return kNaN;
  if (a == 0) {
    if (x > 0) return lower ? 1 : 0;
    return kNaN;
  }
  if (x == 0) return lower ? 0 : 1;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : (lower ? 0 : 1);
  if (std::isinf(x)) return lower ? 1 : 0;
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  if (x < a + 1) {
    const double p = igamma_series(a, x);
    return lower ? p : 1 - p;
  }
  const double q = igammac_fraction(a, x);
  return lower ? 1 - q : q;
}

// ---- orthogonal polynomials p_n(x) ----
// By their three-term recurrences from p_0 and p_1; n < 0 gives 0 (as in PyTorch). `a`, `b`, `c`
// give p_{k+1} = (a_k x + b_k) p_k - c_k p_{k-1}.
template <typename Step>
double recurrence(double x, double n_value, double p0, double p1, Step step) {
  if (std::isnan(n_value)) return kNaN;
  if (n_value < 0) return 0;
  const int64_t n = int64_t(n_value);
  if (n == 0) return p0;
  double prev = p0, cur = p1;
  for (int64_t k = 1; k < n; ++k) {
    const double next = step(x, k, cur, prev);
    prev = cur;
    cur = next;
  }
  return cur;
}
double chebyshev_step(double x, int64_t, double p, double q) { return 2 * x * p - q; }
double chebyshev_t(double x, double n) { return recurrence(x, n, 1, x, chebyshev_step); }
double chebyshev_u(double x, double n) { return recurrence(x, n, 1, 2 * x, chebyshev_step); }
double chebyshev_v(double x, double n) { return recurrence(x, n, 1, 2 * x - 1, chebyshev_step); }
double chebyshev_w(double x, double n) { return recurrence(x, n, 1, 2 * x + 1, chebyshev_step); }
double shifted_chebyshev_t(double x, double n) { return chebyshev_t(2 * x - 1, n); }
double shifted_chebyshev_u(double x, double n) { return chebyshev_u(2 * x - 1, n); }
double shifted_chebyshev_v(double x, double n) { return chebyshev_v(2 * x - 1, n); }
double shifted_chebyshev_w(double x, double n) { return chebyshev_w(2 * x - 1, n); }
double hermite_h(double x, double n) {
  return recurrence(x, n, 1, 2 * x,
                    [](double x, int64_t k, double p, double q) { return 2 * x * p - 2 * k * q; });
}
double hermite_he(double x, double n) {
  return recurrence(x, n, 1, x,
                    [](double x, int64_t k, double p, double q) { return x * p - k * q; });
}
double laguerre_l(double x, double n) {
  return recurrence(x, n, 1, 1 - x, [](double x, int64_t k, double p, double q) {
    return ((2 * k + 1 - x) * p - k * q) / (k + 1);
  });
}
double legendre_p(double x, double n) {
  return recurrence(x, n, 1, x, [](double x, int64_t k, double p, double q) {
    return ((2 * k + 1) * x * p - k * q) / (k + 1);
  });
}

// ---- integral ops ----
template <typename T>
T gcd_value(T a, T b) {
  // Euclid on the magnitudes, in the type's own width (as PyTorch; -INT_MIN wraps there too).
  while (b != 0) {
    const T r = T(a % b);
    a = b;
    b = r;
  }
  return a < 0 ? T(-a) : a;
}
template <typename T>
T lcm_value(T a, T b) {
  const T g = gcd_value(a, b);
  if (g == 0) return 0;
  const T r = T(a / g * b);
  return r < 0 ? T(-r) : r;
}
// Shifts by at least the type's width (or a negative amount) give 0, or the sign for right shifts
// of negative values.
template <typename T>
T left_shift(T a, T b) {
  using U = std::make_unsigned_t<T>;
  constexpr int64_t bits = sizeof(T) * 8;
  if (int64_t(b) < 0 || int64_t(b) >= bits) return 0;
  return T(U(a) << U(b));
}
template <typename T>
T right_shift(T a, T b) {
  constexpr int64_t bits = sizeof(T) * 8;
  if (int64_t(b) < 0 || int64_t(b) >= bits) return T(a >> (bits - 1));
  return T(a >> b);
}

// ---- loops ----
// The op's floating dtypes (the iterator promoted integral inputs), computed in double.
// One loop per dtype shared by every op, calling the op's function through a pointer: the call
// costs little next to these functions, and the library carries one copy of each loop.
void unary_loops(TensorIterator& it, double (*f)(double)) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "special function", [&] {
    run_unary<scalar_t, scalar_t>(it, [f](scalar_t a) { return scalar_t(f(double(a))); });
  });
}
void binary_loops(TensorIterator& it, double (*f)(double, double)) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "special function", [&] {
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) { return scalar_t(f(double(a), double(b))); });
  });
}
template <double (*f)(double)>
void unary_double(TensorIterator& it) {
  unary_loops(it, f);
}
template <double (*f)(double, double)>
void binary_double(TensorIterator& it) {
  binary_loops(it, f);
}

#define BRASA_SPECIAL_DISPATCH_INTEGRAL(dtype, name, ...) \
  [&] {                                                   \
    switch (dtype) {                                      \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)          \
      BRASA_DISPATCH_FAIL(dtype, name)                    \
    }                                                     \
  }()
template <template <typename> class F>
void integral_binary(TensorIterator& it) {
  BRASA_SPECIAL_DISPATCH_INTEGRAL(it.common_dtype(), "integral special function", [&] {
    run_binary<scalar_t, scalar_t>(it, [](scalar_t a, scalar_t b) { return F<scalar_t>::f(a, b); });
  });
}
template <typename T>
struct Gcd {
  static T f(T a, T b) { return gcd_value(a, b); }
};
template <typename T>
struct Lcm {
  static T f(T a, T b) { return lcm_value(a, b); }
};
template <typename T>
struct LeftShift {
  static T f(T a, T b) { return left_shift(a, b); }
};
template <typename T>
struct RightShift {
  static T f(T a, T b) { return right_shift(a, b); }
};

void nextafter_kernel(TensorIterator& it) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "nextafter", [&] {
    run_binary<scalar_t, scalar_t>(it, [](scalar_t a, scalar_t b) -> scalar_t {
      if constexpr (std::is_same_v<scalar_t, float> || std::is_same_v<scalar_t, double>) {
        return std::nextafter(a, b);
      } else {
        return next_reduced(a, b);
      }
    });
  });
}

void frexp_kernel(const Tensor& mantissa, const Tensor& exponent, const Tensor& in) {
  BRASA_DISPATCH_FLOATING_TYPES(in.dtype(), "frexp", [&] {
    const scalar_t* x = in.data_ptr<scalar_t>();
    scalar_t* m = mantissa.data_ptr<scalar_t>();
    int32_t* e = exponent.data_ptr<int32_t>();
    for (int64_t i = 0; i < in.numel(); ++i) {
      int exp = 0;
      m[i] = scalar_t(std::frexp(double(x[i]), &exp));
      e[i] = std::isfinite(double(x[i])) ? int32_t(exp) : 0;
    }
  });
}

double std_acosh(double x) { return std::acosh(x); }
double std_asinh(double x) { return std::asinh(x); }
double std_atanh(double x) { return std::atanh(x); }
double std_erfc(double x) { return std::erfc(x); }
double std_lgamma(double x) { return std::lgamma(x); }
double igamma(double a, double x) { return incomplete_gamma(a, x, true); }
double igammac(double a, double x) { return incomplete_gamma(a, x, false); }

// The sign bit read from the double's bits (float -> double keeps it, NaN's included).
template <typename T>
bool sign_bit(T a) {
  if constexpr (is_float_v<T>) {
    return (std::bit_cast<uint64_t>(double(a)) >> 63) != 0;
  } else if constexpr (std::is_signed_v<T>) {
    return a < 0;
  } else {
    return false;
  }
}
void signbit_kernel(TensorIterator& it) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "signbit", [&] {
    run_unary<bool, scalar_t>(it, [](scalar_t a) -> bool { return sign_bit(a); });
  });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(acosh_stub, ::brasa::cpu::unary_double<::brasa::cpu::std_acosh>);
BRASA_REGISTER_STUB(asinh_stub, ::brasa::cpu::unary_double<::brasa::cpu::std_asinh>);
BRASA_REGISTER_STUB(atanh_stub, ::brasa::cpu::unary_double<::brasa::cpu::std_atanh>);
BRASA_REGISTER_STUB(erfc_stub, ::brasa::cpu::unary_double<::brasa::cpu::std_erfc>);
BRASA_REGISTER_STUB(lgamma_stub, ::brasa::cpu::unary_double<::brasa::cpu::std_lgamma>);
BRASA_REGISTER_STUB(digamma_stub, ::brasa::cpu::unary_double<::brasa::cpu::digamma>);
BRASA_REGISTER_STUB(i0_stub, ::brasa::cpu::unary_double<::brasa::cpu::i0>);
BRASA_REGISTER_STUB(i0e_stub, ::brasa::cpu::unary_double<::brasa::cpu::i0e>);
BRASA_REGISTER_STUB(i1_stub, ::brasa::cpu::unary_double<::brasa::cpu::i1>);
BRASA_REGISTER_STUB(i1e_stub, ::brasa::cpu::unary_double<::brasa::cpu::i1e>);
BRASA_REGISTER_STUB(ndtri_stub, ::brasa::cpu::unary_double<::brasa::cpu::ndtri>);
BRASA_REGISTER_STUB(erfcx_stub, ::brasa::cpu::unary_double<::brasa::cpu::erfcx>);
BRASA_REGISTER_STUB(signbit_stub, ::brasa::cpu::signbit_kernel);
BRASA_REGISTER_STUB(zeta_stub, ::brasa::cpu::binary_double<::brasa::cpu::zeta>);
BRASA_REGISTER_STUB(igamma_stub, ::brasa::cpu::binary_double<::brasa::cpu::igamma>);
BRASA_REGISTER_STUB(igammac_stub, ::brasa::cpu::binary_double<::brasa::cpu::igammac>);
BRASA_REGISTER_STUB(nextafter_stub, ::brasa::cpu::nextafter_kernel);
BRASA_REGISTER_STUB(gcd_stub, ::brasa::cpu::integral_binary<::brasa::cpu::Gcd>);
BRASA_REGISTER_STUB(lcm_stub, ::brasa::cpu::integral_binary<::brasa::cpu::Lcm>);
BRASA_REGISTER_STUB(left_shift_stub, ::brasa::cpu::integral_binary<::brasa::cpu::LeftShift>);
BRASA_REGISTER_STUB(right_shift_stub, ::brasa::cpu::integral_binary<::brasa::cpu::RightShift>);
BRASA_REGISTER_STUB(frexp_stub, ::brasa::cpu::frexp_kernel);
#define BRASA_POLYNOMIAL_STUB(name) \
  BRASA_REGISTER_STUB(name##_stub, ::brasa::cpu::binary_double<::brasa::cpu::name>);
BRASA_POLYNOMIAL_STUB(chebyshev_t)
BRASA_POLYNOMIAL_STUB(chebyshev_u)
BRASA_POLYNOMIAL_STUB(chebyshev_v)
BRASA_POLYNOMIAL_STUB(chebyshev_w)
BRASA_POLYNOMIAL_STUB(shifted_chebyshev_t)
BRASA_POLYNOMIAL_STUB(shifted_chebyshev_u)
BRASA_POLYNOMIAL_STUB(shifted_chebyshev_v)
BRASA_POLYNOMIAL_STUB(shifted_chebyshev_w)
BRASA_POLYNOMIAL_STUB(hermite_h)
BRASA_POLYNOMIAL_STUB(hermite_he)
BRASA_POLYNOMIAL_STUB(laguerre_l)
BRASA_POLYNOMIAL_STUB(legendre_p)
#undef BRASA_POLYNOMIAL_STUB
}  // namespace brasa::ops
