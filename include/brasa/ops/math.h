#pragma once
// Pointwise math beyond pointwise.h, as libtorch 1.13 spells it: its aliases (arccos,
// greater_equal, fix, ...) and the ops PyTorch itself defines as compositions of others (addcmul,
// logaddexp, xlogy, float_power, isclose, ...), written here the same way so that they
// differentiate through their parts. Dtype rules follow PyTorch's: binary forms broadcast and
// promote; ops with a floating result promote integral inputs to the default float. `_out` forms
// write the result into `out` (resized when it has no elements; TypeError when the result can't be
// cast to out's dtype). The special functions with kernels of their own (lgamma, digamma, i0, ...)
// are in special.h.

#include <optional>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

#define BRASA_MATH_UNARY(name)               \
  BRASA_API Tensor name(const Tensor& self); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self);
#define BRASA_MATH_BINARY(name)                                   \
  BRASA_API Tensor name(const Tensor& self, const Tensor& other); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
#define BRASA_MATH_BINARY_SCALAR(name)                            \
  BRASA_MATH_BINARY(name)                                         \
  BRASA_API Tensor name(const Tensor& self, const Scalar& other); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other);

// ---- aliases ----
BRASA_MATH_UNARY(arccos)
BRASA_MATH_UNARY(arcsin)
BRASA_MATH_UNARY(arctan)
BRASA_MATH_BINARY(arctan2)
/// trunc under its NumPy name.
BRASA_MATH_UNARY(fix)
BRASA_MATH_BINARY_SCALAR(greater_equal)
BRASA_MATH_BINARY_SCALAR(less_equal)
BRASA_MATH_BINARY_SCALAR(not_equal)

/// self itself; TypeError for bool tensors (as -self would be).
BRASA_API Tensor positive(const Tensor& self);
/// sign for real tensors; x / |x| (0 at 0) for complex ones.
BRASA_MATH_UNARY(sgn)
/// Degrees to radians and back; integral inputs give the default float dtype.
BRASA_MATH_UNARY(deg2rad)
BRASA_MATH_UNARY(rad2deg)
/// sin(pi x) / (pi x), 1 at 0; integral inputs give the default float dtype.
BRASA_MATH_UNARY(sinc)
/// isinf(x) && x < 0 / x > 0 (Bool); false for integral dtypes, TypeError for complex ones.
BRASA_MATH_UNARY(isneginf)
BRASA_MATH_UNARY(isposinf)
/// imag == 0 for complex tensors, true everywhere for real ones (Bool).
BRASA_API Tensor isreal(const Tensor& self);

/// self + value * tensor1 / tensor2; TypeError when tensor1 and tensor2 are both integral.
BRASA_API Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                         const Scalar& value = 1);
BRASA_API Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1,
                              const Tensor& tensor2, const Scalar& value = 1);
/// self + value * tensor1 * tensor2.
BRASA_API Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                         const Scalar& value = 1);
BRASA_API Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1,
                              const Tensor& tensor2, const Scalar& value = 1);
/// pow computed in double (complex128 when an operand is complex).
BRASA_MATH_BINARY_SCALAR(float_power)
BRASA_API Tensor float_power(const Scalar& self, const Tensor& exponent);
/// maximum / minimum that ignore NaN (NaN only where both are NaN).
BRASA_MATH_BINARY(fmax)
BRASA_MATH_BINARY(fmin)
/// self * 2^other.
BRASA_MATH_BINARY(ldexp)
/// log(exp(a) + exp(b)) and log2(2^a + 2^b), computed stably; floating inputs only.
BRASA_MATH_BINARY(logaddexp)
BRASA_MATH_BINARY(logaddexp2)
/// x * log(y), 0 where x == 0 (unless y is NaN).
BRASA_MATH_BINARY_SCALAR(xlogy)
BRASA_API Tensor xlogy(const Scalar& self, const Tensor& other);
/// |x| with the sign of other (its sign bit: -0.0 counts as negative); integral inputs give the
/// default float dtype.
BRASA_MATH_BINARY_SCALAR(copysign)
/// 0 where self < 0, values where self == 0, 1 where self > 0; self and values must have one dtype
/// (TypeError otherwise).
BRASA_API Tensor heaviside(const Tensor& self, const Tensor& values);
BRASA_API Tensor& heaviside_out(Tensor& out, const Tensor& self, const Tensor& values);
/// |self - other| <= atol + rtol * |other| (or equal; NaNs equal when equal_nan), Bool; self and
/// other must have one dtype (TypeError otherwise).
BRASA_API Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05,
                         double atol = 1e-08, bool equal_nan = false);
/// Whether each element of `elements` occurs in test_elements (Bool, elements' shape); `invert`
/// negates. assume_unique is accepted for libtorch compatibility (the result does not depend on
/// it).
BRASA_API Tensor isin(const Tensor& elements, const Tensor& test_elements,
                      bool assume_unique = false, bool invert = false);
BRASA_API Tensor isin(const Tensor& elements, const Scalar& test_element,
                      bool assume_unique = false, bool invert = false);
BRASA_API Tensor isin(const Scalar& element, const Tensor& test_elements,
                      bool assume_unique = false, bool invert = false);

/// The next representable value after self towards other (floating dtypes).
BRASA_MATH_BINARY(nextafter)
/// Greatest common divisor / least common multiple (non-negative), integral dtypes only.
BRASA_MATH_BINARY(gcd)
BRASA_MATH_BINARY(lcm)
/// Shifts of integral tensors; a shift by a negative amount or by at least the type's width gives
/// 0 (left) or the sign fill (right); right shifts of signed values are arithmetic.
BRASA_MATH_BINARY_SCALAR(bitwise_left_shift)
BRASA_MATH_BINARY_SCALAR(bitwise_right_shift)
BRASA_API Tensor bitwise_left_shift(const Scalar& self, const Tensor& other);
BRASA_API Tensor bitwise_right_shift(const Scalar& self, const Tensor& other);
/// (mantissa, exponent) with self = mantissa * 2^exponent, |mantissa| in [0.5, 1) (0, inf and NaN
/// keep their value with exponent 0); the exponent is int32. Floating inputs only.
BRASA_API std::tuple<Tensor, Tensor> frexp(const Tensor& self);
BRASA_API std::tuple<Tensor&, Tensor&> frexp_out(Tensor& mantissa, Tensor& exponent,
                                                 const Tensor& self);

#undef BRASA_MATH_UNARY
#undef BRASA_MATH_BINARY
#undef BRASA_MATH_BINARY_SCALAR

}  // namespace brasa
