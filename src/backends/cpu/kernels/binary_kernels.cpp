// Loops of the binary pointwise family (compiled once per CPU capability).
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
// Half and BFloat16 run through the float loops (Note [Reduced floats as float] in
// reduced_float.h).
#define BRASA_KERNEL_REDUCED_AS_FLOAT
#include "backends/cpu/kernels/binary_kernels.h"

#include <cmath>
#include <type_traits>

#include "backends/cpu/loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using ops::BinaryKernel;

// Same-dtype arithmetic: the functor gets operands in opmath (float for Half/BFloat16).
template <typename F>
void arith_all(IterRef it, const char* name, F make) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    auto f = make(static_cast<scalar_t*>(nullptr));
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
template <typename F>
void arith_numeric(IterRef it, const char* name, F make) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    auto f = make(static_cast<scalar_t*>(nullptr));
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
template <typename F>
void arith_float(IterRef it, const char* name, F f) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
// Complex dtypes (DEFAULT build only: Note [Complex kernels in the default build]).
template <typename F>
void arith_complex(IterRef it, const char* name, F f) {
  (void)f;  // unused in the AVX2/AVX-512 builds, which compile no complex case
  BRASA_DISPATCH_COMPLEX_TYPES(it.common_dtype(), name, [&] {
    run_binary<scalar_t, scalar_t>(it, [f](scalar_t a, scalar_t b) -> scalar_t { return f(a, b); });
  });
}
template <typename F>
void compare_complex(IterRef it, const char* name, F f) {
  (void)f;
  BRASA_DISPATCH_COMPLEX_TYPES(it.common_dtype(), name, [&] {
    run_binary<bool, scalar_t>(it, [f](scalar_t a, scalar_t b) -> bool { return f(a, b); });
  });
}
template <typename F>
void compare(IterRef it, const char* name, F f) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_binary<bool, scalar_t>(it,
                               [f](scalar_t a, scalar_t b) -> bool { return f(opm(a), opm(b)); });
  });
}

void add_kernel(IterRef it, const Scalar& alpha) {
  BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(it.common_dtype(), "add", [&] {
    using opm = opmath_t<scalar_t>;
    const opm al = alpha.to<opm>();
    if (al == opm(1)) {
      run_binary<scalar_t, scalar_t>(
          it, [](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(opm(a) + opm(b)); });
    } else {
      run_binary<scalar_t, scalar_t>(
          it, [al](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(opm(a) + al * opm(b)); });
    }
  });
}
void sub_kernel(IterRef it, const Scalar& alpha) {
  BRASA_DISPATCH_NUMERIC_AND_COMPLEX_TYPES(it.common_dtype(), "sub", [&] {
    using opm = opmath_t<scalar_t>;
    const opm al = alpha.to<opm>();
    run_binary<scalar_t, scalar_t>(
        it, [al](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(opm(a) - al * opm(b)); });
  });
}
void mul_kernel(IterRef it, const Scalar&) {
  if (it.common_dtype() == kBool) {
    run_binary<bool, bool>(it, [](bool a, bool b) { return a && b; });
    return;
  }
  if (is_complex_type(it.common_dtype()))
    return arith_complex(it, "mul", [](auto a, auto b) { return a * b; });
  arith_numeric(it, "mul", [](auto*) { return [](auto a, auto b) { return a * b; }; });
}
void div_kernel(IterRef it, const Scalar&) {
  if (is_complex_type(it.common_dtype()))
    return arith_complex(it, "div", [](auto a, auto b) { return a / b; });
  arith_float(it, "div", [](auto a, auto b) { return a / b; });
}

template <typename T>
inline void check_int_divisor(T b, const char* name) {
  if constexpr (!is_float_v<T>)
    BRASA_CHECK(b != T(0), name, ": ZeroDivisionError (integer division by zero)");
}

void div_trunc_kernel(IterRef it, const Scalar&) {
  arith_numeric(it, "div", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>) {
        return std::trunc(a / b);
      } else {
        check_int_divisor(b, "div");
        return a / b;
      }
    };
  });
}
template <typename T>
inline T floor_div(T a, T b) {
  if constexpr (is_float_v<T>) {
    if (b == T(0)) return a / b;
    T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
    if (div == T(0)) return std::copysign(T(0), a / b);
    T fl = std::floor(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  } else {
    check_int_divisor(b, "floor_divide");
    if constexpr (std::is_signed_v<T>) {
      T q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return a / b;
    }
  }
}
void floor_divide_kernel(IterRef it, const Scalar&) {
  arith_numeric(it, "floor_divide", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T { return floor_div(a, b); };
  });
}
void remainder_kernel(IterRef it, const Scalar&) {
  arith_numeric(it, "remainder", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>) {
        T r = std::fmod(a, b);
        if (r != T(0) && ((r < T(0)) != (b < T(0)))) r += b;
        return r;
      } else {
        check_int_divisor(b, "remainder");
        T r = a % b;
        if constexpr (std::is_signed_v<T>)
          if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      }
    };
  });
}
void fmod_kernel(IterRef it, const Scalar&) {
  arith_numeric(it, "fmod", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>) {
        return std::fmod(a, b);
      } else {
        check_int_divisor(b, "fmod");
        return a % b;
      }
    };
  });
}
template <typename T>
inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  T result = 1;
  while (exp) {
    if (exp & 1) result *= base;
    exp /= 2;
    base *= base;
  }
  return result;
}
void pow_kernel(IterRef it, const Scalar&) {
  arith_numeric(it, "pow", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>)
        return std::pow(a, b);
      else
        return int_pow(a, b);
    };
  });
}
void atan2_kernel(IterRef it, const Scalar&) {
  arith_float(it, "atan2", [](auto a, auto b) { return std::atan2(a, b); });
}
void hypot_kernel(IterRef it, const Scalar&) {
  arith_float(it, "hypot", [](auto a, auto b) { return std::hypot(a, b); });
}
void maximum_kernel(IterRef it, const Scalar&) {
  arith_all(it, "maximum", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a > b ? a : b;
    };
  });
}
void minimum_kernel(IterRef it, const Scalar&) {
  arith_all(it, "minimum", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a < b ? a : b;
    };
  });
}
// relu's gradient: g where the result is > 0 (NaN results pass g through, as in PyTorch).
void threshold_backward_kernel(IterRef it, const Scalar&) {
  arith_all(it, "threshold_backward", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T g, T y) -> T { return y <= T(0) ? T(0) : g; };
  });
}
void eq_kernel(IterRef it, const Scalar&) {
  if (is_complex_type(it.common_dtype()))
    return compare_complex(it, "eq", [](auto a, auto b) { return a == b; });
  compare(it, "eq", [](auto a, auto b) { return a == b; });
}
void ne_kernel(IterRef it, const Scalar&) {
  if (is_complex_type(it.common_dtype()))
    return compare_complex(it, "ne", [](auto a, auto b) { return a != b; });
  compare(it, "ne", [](auto a, auto b) { return a != b; });
}
void lt_kernel(IterRef it, const Scalar&) {
  compare(it, "lt", [](auto a, auto b) { return a < b; });
}
void le_kernel(IterRef it, const Scalar&) {
  compare(it, "le", [](auto a, auto b) { return a <= b; });
}
void gt_kernel(IterRef it, const Scalar&) {
  compare(it, "gt", [](auto a, auto b) { return a > b; });
}
void ge_kernel(IterRef it, const Scalar&) {
  compare(it, "ge", [](auto a, auto b) { return a >= b; });
}
void logical_and_kernel(IterRef it, const Scalar&) {
  compare(it, "logical_and", [](auto a, auto b) { return bool(a) && bool(b); });
}
void logical_or_kernel(IterRef it, const Scalar&) {
  compare(it, "logical_or", [](auto a, auto b) { return bool(a) || bool(b); });
}
void logical_xor_kernel(IterRef it, const Scalar&) {
  compare(it, "logical_xor", [](auto a, auto b) { return bool(a) != bool(b); });
}
template <typename F>
void bitwise(IterRef it, const char* name, F f) {
  BRASA_DISPATCH_INTEGRAL_AND_BOOL_TYPES(it.common_dtype(), name, [&] {
    run_binary<scalar_t, scalar_t>(it, [f](scalar_t a, scalar_t b) -> scalar_t { return f(a, b); });
  });
}
void bitwise_and_kernel(IterRef it, const Scalar&) {
  bitwise(it, "bitwise_and", [](auto a, auto b) { return a & b; });
}
void bitwise_or_kernel(IterRef it, const Scalar&) {
  bitwise(it, "bitwise_or", [](auto a, auto b) { return a | b; });
}
void bitwise_xor_kernel(IterRef it, const Scalar&) {
  bitwise(it, "bitwise_xor", [](auto a, auto b) { return a ^ b; });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(add_stub, ::brasa::cpu::add_kernel);
BRASA_REGISTER_STUB(sub_stub, ::brasa::cpu::sub_kernel);
BRASA_REGISTER_STUB(mul_stub, ::brasa::cpu::mul_kernel);
BRASA_REGISTER_STUB(div_stub, ::brasa::cpu::div_kernel);
BRASA_REGISTER_STUB(div_trunc_stub, ::brasa::cpu::div_trunc_kernel);
BRASA_REGISTER_STUB(floor_divide_stub, ::brasa::cpu::floor_divide_kernel);
BRASA_REGISTER_STUB(remainder_stub, ::brasa::cpu::remainder_kernel);
BRASA_REGISTER_STUB(fmod_stub, ::brasa::cpu::fmod_kernel);
BRASA_REGISTER_STUB(pow_stub, ::brasa::cpu::pow_kernel);
BRASA_REGISTER_STUB(atan2_stub, ::brasa::cpu::atan2_kernel);
BRASA_REGISTER_STUB(hypot_stub, ::brasa::cpu::hypot_kernel);
BRASA_REGISTER_STUB(maximum_stub, ::brasa::cpu::maximum_kernel);
BRASA_REGISTER_STUB(minimum_stub, ::brasa::cpu::minimum_kernel);
BRASA_REGISTER_STUB(threshold_backward_stub, ::brasa::cpu::threshold_backward_kernel);
BRASA_REGISTER_STUB(eq_stub, ::brasa::cpu::eq_kernel);
BRASA_REGISTER_STUB(ne_stub, ::brasa::cpu::ne_kernel);
BRASA_REGISTER_STUB(lt_stub, ::brasa::cpu::lt_kernel);
BRASA_REGISTER_STUB(le_stub, ::brasa::cpu::le_kernel);
BRASA_REGISTER_STUB(gt_stub, ::brasa::cpu::gt_kernel);
BRASA_REGISTER_STUB(ge_stub, ::brasa::cpu::ge_kernel);
BRASA_REGISTER_STUB(logical_and_stub, ::brasa::cpu::logical_and_kernel);
BRASA_REGISTER_STUB(logical_or_stub, ::brasa::cpu::logical_or_kernel);
BRASA_REGISTER_STUB(logical_xor_stub, ::brasa::cpu::logical_xor_kernel);
BRASA_REGISTER_STUB(bitwise_and_stub, ::brasa::cpu::bitwise_and_kernel);
BRASA_REGISTER_STUB(bitwise_or_stub, ::brasa::cpu::bitwise_or_kernel);
BRASA_REGISTER_STUB(bitwise_xor_stub, ::brasa::cpu::bitwise_xor_kernel);
}  // namespace brasa::ops
