// Loops of the dtype-keeping and predicate unary ops (neg, abs, floor, round, isnan, ...), compiled
// once per CPU capability. Rounding of float/double uses the vector round instructions; the rest
// are plain loops the compiler vectorises.
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
// Half and BFloat16 run through the float loops (Note [Reduced floats as float] in
// reduced_float.h).
#define BRASA_KERNEL_REDUCED_AS_FLOAT
#include "backends/cpu/kernels/unary_kernels.h"

#include <cmath>
#include <type_traits>

#include "backends/cpu/loops.h"
#include "backends/cpu/vec_math.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using namespace vec;

// Signed overflow wraps like PyTorch's (-INT_MIN == INT_MIN) without undefined behaviour.
template <typename T>
inline T wrapping_neg(T x) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(x));
  else
    return -x;
}
template <typename T>
inline T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
  else
    return a * b;
}

// Same-dtype op over all numeric dtypes; Half/BFloat16 compute in float.
template <typename F>
void numeric_kernel(TensorIterator& it, const char* name, F f) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_unary<scalar_t, scalar_t>(it, [f](scalar_t a) -> scalar_t { return scalar_t(f(opm(a))); });
  });
}

// Complex dtypes: DEFAULT build only (Note [Complex kernels in the default build]).
template <typename F>
void complex_kernel(TensorIterator& it, const char* name, F f) {
  (void)f;  // unused in the AVX2/AVX-512 builds, which compile no complex case
  BRASA_DISPATCH_COMPLEX_TYPES(it.common_dtype(), name, [&] {
    using out_t = decltype(f(scalar_t()));
    run_unary<out_t, scalar_t>(it, [f](scalar_t a) -> out_t { return f(a); });
  });
}

void neg_kernel(TensorIterator& it) {
  if (is_complex_type(it.common_dtype()))
    return complex_kernel(it, "neg", [](auto a) { return -a; });
  numeric_kernel(it, "neg", [](auto a) { return wrapping_neg(a); });
}
void conj_physical_kernel(TensorIterator& it) {
  if (is_complex_type(it.common_dtype()))
    return complex_kernel(it, "conj_physical", [](auto a) { return ::brasa::conj(a); });
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "conj_physical", [&] {
    run_unary<scalar_t, scalar_t>(it, [](scalar_t a) { return a; });
  });
}
void abs_kernel(TensorIterator& it) {
  if (is_complex_type(it.common_dtype()))
    return complex_kernel(it, "abs", [](auto a) { return ::brasa::abs(a); });
  numeric_kernel(it, "abs", [](auto a) {
    using T = decltype(a);
    if constexpr (std::is_unsigned_v<T>)
      return a;
    else if constexpr (std::is_integral_v<T>)
      return a < 0 ? wrapping_neg(a) : a;
    else
      return std::fabs(a);
  });
}
void sign_kernel(TensorIterator& it) {
  if (it.common_dtype() == kBool) {
    run_unary<bool, bool>(it, [](bool a) { return a; });
    return;
  }
  numeric_kernel(it, "sign", [](auto a) {
    using T = decltype(a);
    return T(T(0) < a) - T(a < T(0));  // NaN gives 0, like PyTorch
  });
}
void square_kernel(TensorIterator& it) {
  numeric_kernel(it, "square", [](auto a) { return wrapping_mul(a, a); });
}
void relu_kernel(TensorIterator& it) {
  numeric_kernel(it, "relu", [](auto a) {
    using T = decltype(a);
    return a < T(0) ? T(0) : a;  // keeps NaN and -0.0
  });
}
template <typename T>
inline T bit_not(T a) {
  if constexpr (std::is_same_v<T, bool>)
    return !a;
  else
    return T(~a);
}
void bitwise_not_kernel(TensorIterator& it) {
  BRASA_DISPATCH_INTEGRAL_AND_BOOL_TYPES(it.common_dtype(), "bitwise_not", [&] {
    run_unary<scalar_t, scalar_t>(it, [](scalar_t a) { return bit_not(a); });
  });
}

// floor/ceil/round/trunc/frac: vector rounding for floating dtypes; integral dtypes are their own
// result (frac refuses them).
#define BRASA_ROUND_OP(name, vfn, expr)                     \
  struct name##_fn {                                        \
    template <typename T>                                   \
    static T scalar(T x) {                                  \
      return expr;                                          \
    }                                                       \
    BRASA_VEC_FORM(static auto vec(auto x) { return vfn; }) \
  };
#if BRASA_HAS_VEC
#define BRASA_VEC_FORM(...) __VA_ARGS__
#else
#define BRASA_VEC_FORM(...)
#endif
BRASA_ROUND_OP(floor, vfloor(x), std::floor(x))
BRASA_ROUND_OP(ceil, vceil(x), std::ceil(x))
BRASA_ROUND_OP(round, vrint(x), std::nearbyint(x))  // half to even in the default rounding mode
BRASA_ROUND_OP(trunc, vtrunc(x), std::trunc(x))
BRASA_ROUND_OP(frac, x - vtrunc(x), x - std::trunc(x))
#undef BRASA_ROUND_OP
#undef BRASA_VEC_FORM

template <typename Op>
void rounding_kernel(TensorIterator& it, const char* name, bool integral_ok) {
  ScalarType dt = it.common_dtype();
  if (is_floating_type(dt)) {
    BRASA_DISPATCH_FLOATING_TYPES(dt, name, [&] { map_unary<Op, scalar_t>(it); });
    return;
  }
  BRASA_CHECK_TYPE(integral_ok, name, ": not implemented for dtype ", dt);
  BRASA_DISPATCH_NUMERIC_TYPES(
      dt, name, [&] { run_unary<scalar_t, scalar_t>(it, [](scalar_t a) { return a; }); });
}
void floor_kernel(TensorIterator& it) { rounding_kernel<floor_fn>(it, "floor", true); }
void ceil_kernel(TensorIterator& it) { rounding_kernel<ceil_fn>(it, "ceil", true); }
void round_kernel(TensorIterator& it) { rounding_kernel<round_fn>(it, "round", true); }
void trunc_kernel(TensorIterator& it) { rounding_kernel<trunc_fn>(it, "trunc", true); }
void frac_kernel(TensorIterator& it) { rounding_kernel<frac_fn>(it, "frac", false); }

// Bool-valued ops: the input keeps its dtype, the output is Bool.
template <typename F>
void predicate_kernel(TensorIterator& it, const char* name, F f) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), name, [&] {
    using opm = opmath_t<scalar_t>;
    run_unary<bool, scalar_t>(it, [f](scalar_t a) -> bool { return f(opm(a)); });
  });
}
void logical_not_kernel(TensorIterator& it) {
  predicate_kernel(it, "logical_not", [](auto a) { return !bool(a); });
}
void isnan_kernel(TensorIterator& it) {
  predicate_kernel(it, "isnan", [](auto a) {
    if constexpr (is_float_v<decltype(a)>)
      return a != a;
    else
      return false;
  });
}
void isinf_kernel(TensorIterator& it) {
  predicate_kernel(it, "isinf", [](auto a) {
    if constexpr (is_float_v<decltype(a)>)
      return std::isinf(a);
    else
      return false;
  });
}
void isfinite_kernel(TensorIterator& it) {
  predicate_kernel(it, "isfinite", [](auto a) {
    if constexpr (is_float_v<decltype(a)>)
      return std::isfinite(a);
    else
      return true;
  });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(neg_stub, ::brasa::cpu::neg_kernel);
BRASA_REGISTER_STUB(abs_stub, ::brasa::cpu::abs_kernel);
BRASA_REGISTER_STUB(conj_physical_stub, ::brasa::cpu::conj_physical_kernel);
BRASA_REGISTER_STUB(sign_stub, ::brasa::cpu::sign_kernel);
BRASA_REGISTER_STUB(square_stub, ::brasa::cpu::square_kernel);
BRASA_REGISTER_STUB(floor_stub, ::brasa::cpu::floor_kernel);
BRASA_REGISTER_STUB(ceil_stub, ::brasa::cpu::ceil_kernel);
BRASA_REGISTER_STUB(round_stub, ::brasa::cpu::round_kernel);
BRASA_REGISTER_STUB(trunc_stub, ::brasa::cpu::trunc_kernel);
BRASA_REGISTER_STUB(frac_stub, ::brasa::cpu::frac_kernel);
BRASA_REGISTER_STUB(relu_stub, ::brasa::cpu::relu_kernel);
BRASA_REGISTER_STUB(bitwise_not_stub, ::brasa::cpu::bitwise_not_kernel);
BRASA_REGISTER_STUB(logical_not_stub, ::brasa::cpu::logical_not_kernel);
BRASA_REGISTER_STUB(isnan_stub, ::brasa::cpu::isnan_kernel);
BRASA_REGISTER_STUB(isinf_stub, ::brasa::cpu::isinf_kernel);
BRASA_REGISTER_STUB(isfinite_stub, ::brasa::cpu::isfinite_kernel);
}  // namespace brasa::ops
