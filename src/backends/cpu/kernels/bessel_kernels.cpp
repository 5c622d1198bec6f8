// Loops of the Bessel and Airy functions of the special_ namespace (bessel_j0/j1/y0/y1, the
// modified K0/K1 and their exponentially scaled forms, airy_ai), declared in special_kernels.h. The
// functions are libstdc++'s C++17 special functions (std::cyl_bessel_j, std::cyl_neumann,
// std::cyl_bessel_k, the Airy evaluation behind __gnu_cxx::airy_ai), evaluated in double, with
// PyTorch's values at the edges of the domain and asymptotic expansions where libstdc++ gives up on
// large arguments. Float and double only (PyTorch 1.13 has no Half/BFloat16 kernel for them). Cold
// code: DEFAULT build only, compiled with -Os (Note [Capability builds per file]).
#define BRASA_KERNEL_DEFAULT_ONLY
#define BRASA_KERNEL_DEFAULT_OS
#include <cmath>
#include <limits>
#include <numbers>

#include "backends/cpu/kernels/special_kernels.h"
#include "backends/cpu/loops.h"
#include "brasa/core/error.h"

namespace brasa::cpu {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// J0 is even and J1 odd (libstdc++ takes x >= 0); infinite arguments give NaN, as in PyTorch.
double bessel_j0(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return kNaN;
  return std::cyl_bessel_j(0.0, std::fabs(x));
}
double bessel_j1(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return kNaN;
  const double r = std::cyl_bessel_j(1.0, std::fabs(x));
  return x < 0 ? -r : r;
}
// Y_n is real for x > 0: -inf at 0, NaN below and at +inf (as in PyTorch).
template <int n>
double bessel_y(double x) {
  if (std::isnan(x)) return x;
  if (x < 0 || std::isinf(x)) return kNaN;
  if (x == 0) return -kInf;
  return std::cyl_neumann(double(n), x);
}

// e^x K_nu(x) for large x by the Hankel expansion sqrt(pi / 2x) sum_k a_k / x^k, where
// a_k = a_(k-1) (4 nu^2 - (2k - 1)^2) / (8k): above x = 700 its terms fall below 1e-17 of the sum
// within a few steps. libstdc++'s K refuses large arguments, and e^x overflows there.
double scaled_k_expansion(double nu, double x) {
  const double mu = 4 * nu * nu;
  double term = 1, sum = 1;
  for (int k = 1; k < 40; ++k) {
    term *= (mu - double((2 * k - 1) * (2 * k - 1))) / (8.0 * k * x);
    sum += term;
    if (std::fabs(term) < 1e-17 * std::fabs(sum)) break;
  }
  return std::sqrt(std::numbers::pi / (2 * x)) * sum;
}
// K_n(x) and e^x K_n(x): inf at 0, NaN below; the expansion above 700 (K itself underflows to
// subnormals and 0 there).
template <int n, bool scaled>
double bessel_k(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return kNaN;
  if (x == 0) return kInf;
  if (std::isinf(x)) return 0;
  if (x > 700) {
    const double s = scaled_k_expansion(n, x);
    return scaled ? s : s * std::exp(-x);
  }
  const double k = std::cyl_bessel_k(double(n), x);
  return scaled ? k * std::exp(x) : k;
}

// Ai(x): libstdc++'s evaluation (through K_1/3 and J_+-1/3) on [-100, 105]; Ai(0) + Ai'(0) x
// within 1e-10 of 0, where its K_1/3 overflows; 0 above 105 (Ai(105) < 1e-310); below -100 the
// expansion (DLMF 9.7.9) Ai(-z) = (cos(t) sum_k (-1)^k u_2k / zeta^2k + sin(t) sum_k (-1)^k
// u_(2k+1) / zeta^(2k+1)) / (sqrt(pi) z^(1/4)), with zeta = 2/3 z^(3/2), t = zeta - pi/4 and
// u_k = u_(k-1) (6k - 5)(6k - 3)(6k - 1) / (216 k (2k - 1)). Infinite arguments give NaN, as in
// PyTorch.
double airy_ai(double x) {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return kNaN;
  constexpr double kAi0 = 0.355028053887817239260, kAiPrime0 = -0.258819403792806798405;
  if (std::fabs(x) < 1e-10) return kAi0 + kAiPrime0 * x;
  if (x > 105) return 0;
  if (x >= -100) {
    double ai = 0, bi = 0, ai_prime = 0, bi_prime = 0;
    std::__detail::__airy<double>(x, ai, bi, ai_prime, bi_prime);
    return ai;
  }
  const double z = -x, zeta = 2.0 / 3.0 * z * std::sqrt(z);
  double u = 1, even = 0, odd = 0, power = 1;  // power = zeta^-k
  for (int k = 0; k < 12; ++k) {
    if (k > 0) u *= double((6 * k - 5) * (6 * k - 3) * (6 * k - 1)) / (216.0 * k * (2 * k - 1));
    const double term = (k / 2) % 2 == 0 ? u * power : -u * power;
    (k % 2 == 0 ? even : odd) += term;
    power /= zeta;
  }
  const double t = zeta - std::numbers::pi / 4;
  return (std::cos(t) * even + std::sin(t) * odd) /
         (std::sqrt(std::numbers::pi) * std::sqrt(std::sqrt(z)));
}

// One loop per dtype, shared by the nine functions through a pointer.
void bessel_loops(TensorIterator& it, double (*f)(double)) {
  auto loop = [&](auto zero) {
    using scalar_t = decltype(zero);
    run_unary<scalar_t, scalar_t>(it, [f](scalar_t a) { return scalar_t(f(double(a))); });
  };
  switch (it.common_dtype()) {
    case ScalarType::Float: return loop(0.0f);
    case ScalarType::Double: return loop(0.0);
    default:
      BRASA_THROW(TypeError, "Bessel function: not implemented for dtype ", it.common_dtype());
  }
}
template <double (*f)(double)>
void bessel_kernel(TensorIterator& it) {
  bessel_loops(it, f);
}
double y0(double x) { return bessel_y<0>(x); }
double y1(double x) { return bessel_y<1>(x); }
double k0(double x) { return bessel_k<0, false>(x); }
double k1(double x) { return bessel_k<1, false>(x); }
double k0e(double x) { return bessel_k<0, true>(x); }
double k1e(double x) { return bessel_k<1, true>(x); }

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
using cpu::bessel_kernel;
BRASA_REGISTER_STUB(bessel_j0_stub, bessel_kernel<::brasa::cpu::bessel_j0>);
BRASA_REGISTER_STUB(bessel_j1_stub, bessel_kernel<::brasa::cpu::bessel_j1>);
BRASA_REGISTER_STUB(bessel_y0_stub, bessel_kernel<::brasa::cpu::y0>);
BRASA_REGISTER_STUB(bessel_y1_stub, bessel_kernel<::brasa::cpu::y1>);
BRASA_REGISTER_STUB(modified_bessel_k0_stub, bessel_kernel<::brasa::cpu::k0>);
BRASA_REGISTER_STUB(modified_bessel_k1_stub, bessel_kernel<::brasa::cpu::k1>);
BRASA_REGISTER_STUB(scaled_modified_bessel_k0_stub, bessel_kernel<::brasa::cpu::k0e>);
BRASA_REGISTER_STUB(scaled_modified_bessel_k1_stub, bessel_kernel<::brasa::cpu::k1e>);
BRASA_REGISTER_STUB(airy_ai_stub, bessel_kernel<::brasa::cpu::airy_ai>);
}  // namespace brasa::ops
