// Loops of the floating unary ops (exp, log, sin, sigmoid, erfinv, ...), compiled once per CPU
// capability: SLEEF vector functions in the AVX2/AVX512 builds, std:: functions in DEFAULT.
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
// Half and BFloat16 run through the float loops (Note [Reduced floats as float] in
// reduced_float.h).
#define BRASA_KERNEL_REDUCED_AS_FLOAT
#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/cpu/kernels/unary_kernels.h"
#include "backends/cpu/vec_math.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using namespace vec;

template <typename Op>
void float_kernel(TensorIterator& it, const char* name) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), name, [&] { map_unary<Op, scalar_t>(it); });
}

// One struct per op: scalar form, and the vector form where there is one.
#define BRASA_SLEEF_OP(name)                                       \
  struct name##_fn {                                               \
    template <typename T>                                          \
    static T scalar(T x) {                                         \
      return std::name(x);                                         \
    }                                                              \
    BRASA_VEC_FORM(static auto vec(auto x) { return v##name(x); }) \
  };
#if BRASA_HAS_VEC
#define BRASA_VEC_FORM(...) __VA_ARGS__
#else
#define BRASA_VEC_FORM(...)
#endif
BRASA_SLEEF_OP(exp)
BRASA_SLEEF_OP(exp2)
BRASA_SLEEF_OP(expm1)
BRASA_SLEEF_OP(log)
BRASA_SLEEF_OP(log2)
BRASA_SLEEF_OP(log10)
BRASA_SLEEF_OP(log1p)
BRASA_SLEEF_OP(sin)
BRASA_SLEEF_OP(cos)
BRASA_SLEEF_OP(tan)
BRASA_SLEEF_OP(asin)
BRASA_SLEEF_OP(acos)
BRASA_SLEEF_OP(atan)
BRASA_SLEEF_OP(sinh)
BRASA_SLEEF_OP(cosh)
BRASA_SLEEF_OP(tanh)
BRASA_SLEEF_OP(erf)
#undef BRASA_SLEEF_OP

struct sqrt_fn {
  template <typename T>
  static T scalar(T x) {
    return std::sqrt(x);
  }
  BRASA_VEC_FORM(static auto vec(auto x) { return vsqrt(x); })
};
struct rsqrt_fn {
  template <typename T>
  static T scalar(T x) {
    return T(1) / std::sqrt(x);
  }
  BRASA_VEC_FORM(static auto vec(auto x) { return 1 / vsqrt(x); })
};
struct reciprocal_fn {
  template <typename T>
  static T scalar(T x) {
    return T(1) / x;
  }
  BRASA_VEC_FORM(static auto vec(auto x) { return 1 / x; })
};
struct sigmoid_fn {
  template <typename T>
  static T scalar(T x) {
    return T(1) / (T(1) + std::exp(-x));
  }
  BRASA_VEC_FORM(static auto vec(auto x) { return 1 / (1 + vexp(-x)); })
};

// erfinv: an initial guess from M. Giles, "Approximating the erfinv function", GPU Computing Gems
// Jade Edition (2011), single-precision polynomials (about 1e-7 relative error), refined in double
// by Newton steps on erf(x) = y (on log(erfc(x)) = log(1 - |y|) in the tails, where 1 - |y| is
// exact), usually two, to full double precision.
double erfinv_guess(double y) {
  double w = -std::log((1.0 - y) * (1.0 + y)), p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * y;
}
// Stops once a step is below rel_tol: Newton converges quadratically, so the error left after it
// is about rel_tol squared.
double erfinv_double(double y, double rel_tol) {
  if (std::isnan(y) || y < -1.0 || y > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1.0 || y == -1.0) return std::copysign(std::numeric_limits<double>::infinity(), y);
  if (y == 0.0) return y;
  const double a = std::fabs(y);
  double x = erfinv_guess(a);
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  for (int step = 0; step < 6; ++step) {
    const double slope = kTwoOverSqrtPi * std::exp(-x * x);
    double dx;
    if (a < 0.5) {
      dx = (std::erf(x) - a) / slope;
    } else {  // Newton on log(erfc(x)) = log(1 - a): nearly linear, and 1 - a is exact
      const double c = std::erfc(x);
      dx = (std::log(c) - std::log1p(-a)) * c / -slope;
    }
    x -= dx;
    if (std::fabs(dx) <= rel_tol * std::fabs(x)) break;
  }
  return std::copysign(x, y);
}
struct erfinv_fn {
  template <typename T>
  static T scalar(T y) {
    return T(erfinv_double(double(y), std::is_same_v<T, double> ? 1e-9 : 1e-5));
  }
};

#define BRASA_FLOAT_KERNEL(name) \
  void name##_kernel(TensorIterator& it) { float_kernel<name##_fn>(it, #name); }
BRASA_FLOAT_KERNEL(reciprocal)
BRASA_FLOAT_KERNEL(exp)
BRASA_FLOAT_KERNEL(exp2)
BRASA_FLOAT_KERNEL(expm1)
BRASA_FLOAT_KERNEL(log)
BRASA_FLOAT_KERNEL(log2)
BRASA_FLOAT_KERNEL(log10)
BRASA_FLOAT_KERNEL(log1p)
BRASA_FLOAT_KERNEL(sqrt)
BRASA_FLOAT_KERNEL(rsqrt)
BRASA_FLOAT_KERNEL(sin)
BRASA_FLOAT_KERNEL(cos)
BRASA_FLOAT_KERNEL(tan)
BRASA_FLOAT_KERNEL(asin)
BRASA_FLOAT_KERNEL(acos)
BRASA_FLOAT_KERNEL(atan)
BRASA_FLOAT_KERNEL(sinh)
BRASA_FLOAT_KERNEL(cosh)
BRASA_FLOAT_KERNEL(tanh)
BRASA_FLOAT_KERNEL(sigmoid)
BRASA_FLOAT_KERNEL(erf)
BRASA_FLOAT_KERNEL(erfinv)
#undef BRASA_FLOAT_KERNEL
#undef BRASA_VEC_FORM

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(reciprocal_stub, ::brasa::cpu::reciprocal_kernel);
BRASA_REGISTER_STUB(exp_stub, ::brasa::cpu::exp_kernel);
BRASA_REGISTER_STUB(exp2_stub, ::brasa::cpu::exp2_kernel);
BRASA_REGISTER_STUB(expm1_stub, ::brasa::cpu::expm1_kernel);
BRASA_REGISTER_STUB(log_stub, ::brasa::cpu::log_kernel);
BRASA_REGISTER_STUB(log2_stub, ::brasa::cpu::log2_kernel);
BRASA_REGISTER_STUB(log10_stub, ::brasa::cpu::log10_kernel);
BRASA_REGISTER_STUB(log1p_stub, ::brasa::cpu::log1p_kernel);
BRASA_REGISTER_STUB(sqrt_stub, ::brasa::cpu::sqrt_kernel);
BRASA_REGISTER_STUB(rsqrt_stub, ::brasa::cpu::rsqrt_kernel);
BRASA_REGISTER_STUB(sin_stub, ::brasa::cpu::sin_kernel);
BRASA_REGISTER_STUB(cos_stub, ::brasa::cpu::cos_kernel);
BRASA_REGISTER_STUB(tan_stub, ::brasa::cpu::tan_kernel);
BRASA_REGISTER_STUB(asin_stub, ::brasa::cpu::asin_kernel);
BRASA_REGISTER_STUB(acos_stub, ::brasa::cpu::acos_kernel);
BRASA_REGISTER_STUB(atan_stub, ::brasa::cpu::atan_kernel);
BRASA_REGISTER_STUB(sinh_stub, ::brasa::cpu::sinh_kernel);
BRASA_REGISTER_STUB(cosh_stub, ::brasa::cpu::cosh_kernel);
BRASA_REGISTER_STUB(tanh_stub, ::brasa::cpu::tanh_kernel);
BRASA_REGISTER_STUB(sigmoid_stub, ::brasa::cpu::sigmoid_kernel);
BRASA_REGISTER_STUB(erf_stub, ::brasa::cpu::erf_kernel);
BRASA_REGISTER_STUB(erfinv_stub, ::brasa::cpu::erfinv_kernel);
}  // namespace brasa::ops
