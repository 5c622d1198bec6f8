// Loops of the binary pointwise family (compiled once per CPU capability).
#include "backends/cpu/kernels/binary_kernels.h"

#include <cmath>
#include <type_traits>

#include "backends/cpu/flat_iterator.h"
#include "backends/cpu/loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using ops::BinaryKernel;

template <typename T>
constexpr bool is_float_v =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Same-dtype arithmetic: the functor gets operands in opmath (float for Half/BFloat16).
template <class It, typename F>
void arith_all(It& it, const char* name, F make) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    auto f = make(static_cast<scalar_t*>(nullptr));
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
template <class It, typename F>
void arith_numeric(It& it, const char* name, F make) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    auto f = make(static_cast<scalar_t*>(nullptr));
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
template <class It, typename F>
void arith_float(It& it, const char* name, F f) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_binary<scalar_t, scalar_t>(
        it, [f](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(f(opm(a), opm(b))); });
  });
}
template <class It, typename F>
void compare(It& it, const char* name, F f) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_binary<bool, scalar_t>(it,
                               [f](scalar_t a, scalar_t b) -> bool { return f(opm(a), opm(b)); });
  });
}

template <class It>
void add_kernel(It& it, const Scalar& alpha) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "add", [&] {
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
template <class It>
void sub_kernel(It& it, const Scalar& alpha) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.common_dtype(), "sub", [&] {
    using opm = opmath_t<scalar_t>;
    const opm al = alpha.to<opm>();
    run_binary<scalar_t, scalar_t>(
        it, [al](scalar_t a, scalar_t b) -> scalar_t { return scalar_t(opm(a) - al * opm(b)); });
  });
}
template <class It>
void mul_kernel(It& it, const Scalar&) {
  if (it.common_dtype() == kBool) {
    run_binary<bool, bool>(it, [](bool a, bool b) { return a && b; });
    return;
  }
  arith_numeric(it, "mul", [](auto*) { return [](auto a, auto b) { return a * b; }; });
}
template <class It>
void div_kernel(It& it, const Scalar&) {
  arith_float(it, "div", [](auto a, auto b) { return a / b; });
}

template <typename T>
inline void check_int_divisor(T b, const char* name) {
  if constexpr (!is_float_v<T>)
    BRASA_CHECK(b != T(0), name, ": ZeroDivisionError (integer division by zero)");
}

template <class It>
void div_trunc_kernel(It& it, const Scalar&) {
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
template <class It>
void floor_divide_kernel(It& it, const Scalar&) {
  arith_numeric(it, "floor_divide", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T { return floor_div(a, b); };
  });
}
template <class It>
void remainder_kernel(It& it, const Scalar&) {
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
template <class It>
void fmod_kernel(It& it, const Scalar&) {
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
template <class It>
void pow_kernel(It& it, const Scalar&) {
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
template <class It>
void atan2_kernel(It& it, const Scalar&) {
  arith_float(it, "atan2", [](auto a, auto b) { return std::atan2(a, b); });
}
template <class It>
void hypot_kernel(It& it, const Scalar&) {
  arith_float(it, "hypot", [](auto a, auto b) { return std::hypot(a, b); });
}
template <class It>
void maximum_kernel(It& it, const Scalar&) {
  arith_all(it, "maximum", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T a, T b) -> T {
      if constexpr (is_float_v<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
      return a > b ? a : b;
    };
  });
}
template <class It>
void minimum_kernel(It& it, const Scalar&) {
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
template <class It>
void threshold_backward_kernel(It& it, const Scalar&) {
  arith_all(it, "threshold_backward", [](auto* p) {
    using T = opmath_t<std::remove_pointer_t<decltype(p)>>;
    return [](T g, T y) -> T { return y <= T(0) ? T(0) : g; };
  });
}
template <class It>
void eq_kernel(It& it, const Scalar&) {
  compare(it, "eq", [](auto a, auto b) { return a == b; });
}
template <class It>
void ne_kernel(It& it, const Scalar&) {
  compare(it, "ne", [](auto a, auto b) { return a != b; });
}
template <class It>
void lt_kernel(It& it, const Scalar&) {
  compare(it, "lt", [](auto a, auto b) { return a < b; });
}
template <class It>
void le_kernel(It& it, const Scalar&) {
  compare(it, "le", [](auto a, auto b) { return a <= b; });
}
template <class It>
void gt_kernel(It& it, const Scalar&) {
  compare(it, "gt", [](auto a, auto b) { return a > b; });
}
template <class It>
void ge_kernel(It& it, const Scalar&) {
  compare(it, "ge", [](auto a, auto b) { return a >= b; });
}
template <class It>
void logical_and_kernel(It& it, const Scalar&) {
  compare(it, "logical_and", [](auto a, auto b) { return bool(a) && bool(b); });
}
template <class It>
void logical_or_kernel(It& it, const Scalar&) {
  compare(it, "logical_or", [](auto a, auto b) { return bool(a) || bool(b); });
}
template <class It>
void logical_xor_kernel(It& it, const Scalar&) {
  compare(it, "logical_xor", [](auto a, auto b) { return bool(a) != bool(b); });
}
template <class It, typename F>
void bitwise(It& it, const char* name, F f) {
  BRASA_DISPATCH_INTEGRAL_AND_BOOL_TYPES(it.common_dtype(), name, [&] {
    run_binary<scalar_t, scalar_t>(it, [f](scalar_t a, scalar_t b) -> scalar_t { return f(a, b); });
  });
}
template <class It>
void bitwise_and_kernel(It& it, const Scalar&) {
  bitwise(it, "bitwise_and", [](auto a, auto b) { return a & b; });
}
template <class It>
void bitwise_or_kernel(It& it, const Scalar&) {
  bitwise(it, "bitwise_or", [](auto a, auto b) { return a | b; });
}
template <class It>
void bitwise_xor_kernel(It& it, const Scalar&) {
  bitwise(it, "bitwise_xor", [](auto a, auto b) { return a ^ b; });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
// Each op's loop, compiled for both iterators (the op and its stubs are in binary_ops.h).
#define BRASA_REGISTER_BINARY(stub, flat_stub, kernel)                           \
  BRASA_REGISTER_STUB(stub, ::brasa::cpu::kernel<::brasa::cpu::TensorIterator>); \
  BRASA_REGISTER_STUB(flat_stub, ::brasa::cpu::kernel<::brasa::cpu::FlatIterator>);
BRASA_REGISTER_BINARY(add_stub, add_flat_stub, add_kernel)
BRASA_REGISTER_BINARY(sub_stub, sub_flat_stub, sub_kernel)
BRASA_REGISTER_BINARY(mul_stub, mul_flat_stub, mul_kernel)
BRASA_REGISTER_BINARY(div_stub, div_flat_stub, div_kernel)
BRASA_REGISTER_BINARY(div_trunc_stub, div_trunc_flat_stub, div_trunc_kernel)
BRASA_REGISTER_BINARY(floor_divide_stub, floor_divide_flat_stub, floor_divide_kernel)
BRASA_REGISTER_BINARY(remainder_stub, remainder_flat_stub, remainder_kernel)
BRASA_REGISTER_BINARY(fmod_stub, fmod_flat_stub, fmod_kernel)
BRASA_REGISTER_BINARY(pow_stub, pow_flat_stub, pow_kernel)
BRASA_REGISTER_BINARY(atan2_stub, atan2_flat_stub, atan2_kernel)
BRASA_REGISTER_BINARY(hypot_stub, hypot_flat_stub, hypot_kernel)
BRASA_REGISTER_BINARY(maximum_stub, maximum_flat_stub, maximum_kernel)
BRASA_REGISTER_BINARY(minimum_stub, minimum_flat_stub, minimum_kernel)
BRASA_REGISTER_BINARY(threshold_backward_stub, threshold_backward_flat_stub,
                      threshold_backward_kernel)
BRASA_REGISTER_BINARY(eq_stub, eq_flat_stub, eq_kernel)
BRASA_REGISTER_BINARY(ne_stub, ne_flat_stub, ne_kernel)
BRASA_REGISTER_BINARY(lt_stub, lt_flat_stub, lt_kernel)
BRASA_REGISTER_BINARY(le_stub, le_flat_stub, le_kernel)
BRASA_REGISTER_BINARY(gt_stub, gt_flat_stub, gt_kernel)
BRASA_REGISTER_BINARY(ge_stub, ge_flat_stub, ge_kernel)
BRASA_REGISTER_BINARY(logical_and_stub, logical_and_flat_stub, logical_and_kernel)
BRASA_REGISTER_BINARY(logical_or_stub, logical_or_flat_stub, logical_or_kernel)
BRASA_REGISTER_BINARY(logical_xor_stub, logical_xor_flat_stub, logical_xor_kernel)
BRASA_REGISTER_BINARY(bitwise_and_stub, bitwise_and_flat_stub, bitwise_and_kernel)
BRASA_REGISTER_BINARY(bitwise_or_stub, bitwise_or_flat_stub, bitwise_or_kernel)
BRASA_REGISTER_BINARY(bitwise_xor_stub, bitwise_xor_flat_stub, bitwise_xor_kernel)
#undef BRASA_REGISTER_BINARY
}  // namespace brasa::ops
