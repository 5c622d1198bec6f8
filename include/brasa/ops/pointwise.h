#pragma once
// Pointwise ops as free functions (libtorch spellings). Binary ops broadcast and promote dtypes
// like PyTorch; `_out` forms write into `out` (resized when it has no elements) and return it.
// Errors: ValueError for shapes that do not broadcast, TypeError for dtypes an op does not accept
// or a result that can't be cast to an in-place/out= tensor's dtype.

#include <optional>
#include <string_view>

#include "brasa/core/tensor.h"

namespace brasa {

#define BRASA_BINARY_FREE_FUNCTIONS(name)                         \
  BRASA_API Tensor name(const Tensor& self, const Tensor& other); \
  BRASA_API Tensor name(const Tensor& self, const Scalar& other); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
BRASA_API Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
BRASA_API Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
BRASA_API Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other,
                          const Scalar& alpha = 1);
BRASA_API Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
BRASA_API Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
BRASA_API Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other,
                          const Scalar& alpha = 1);
BRASA_API Tensor subtract(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
BRASA_API Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
BRASA_API Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
/// rounding_mode: none (true division), "trunc" or "floor".
BRASA_API Tensor div(const Tensor& self, const Tensor& other,
                     std::optional<std::string_view> rounding_mode);
BRASA_API Tensor div(const Tensor& self, const Scalar& other,
                     std::optional<std::string_view> rounding_mode);
BRASA_API Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                          std::optional<std::string_view> rounding_mode);
BRASA_BINARY_FREE_FUNCTIONS(mul)
BRASA_BINARY_FREE_FUNCTIONS(div)
BRASA_BINARY_FREE_FUNCTIONS(remainder)
BRASA_BINARY_FREE_FUNCTIONS(fmod)
BRASA_BINARY_FREE_FUNCTIONS(floor_divide)
BRASA_BINARY_FREE_FUNCTIONS(pow)
BRASA_BINARY_FREE_FUNCTIONS(atan2)
BRASA_BINARY_FREE_FUNCTIONS(hypot)
BRASA_BINARY_FREE_FUNCTIONS(maximum)
BRASA_BINARY_FREE_FUNCTIONS(minimum)
BRASA_BINARY_FREE_FUNCTIONS(eq)
BRASA_BINARY_FREE_FUNCTIONS(ne)
BRASA_BINARY_FREE_FUNCTIONS(lt)
BRASA_BINARY_FREE_FUNCTIONS(le)
BRASA_BINARY_FREE_FUNCTIONS(gt)
BRASA_BINARY_FREE_FUNCTIONS(ge)
BRASA_BINARY_FREE_FUNCTIONS(logical_and)
BRASA_BINARY_FREE_FUNCTIONS(logical_or)
BRASA_BINARY_FREE_FUNCTIONS(logical_xor)
BRASA_BINARY_FREE_FUNCTIONS(bitwise_and)
BRASA_BINARY_FREE_FUNCTIONS(bitwise_or)
BRASA_BINARY_FREE_FUNCTIONS(bitwise_xor)
#undef BRASA_BINARY_FREE_FUNCTIONS
BRASA_API Tensor multiply(const Tensor& self, const Tensor& other);
BRASA_API Tensor divide(const Tensor& self, const Tensor& other);
BRASA_API Tensor true_divide(const Tensor& self, const Tensor& other);
BRASA_API Tensor pow(const Scalar& self, const Tensor& exponent);
BRASA_API Tensor max(const Tensor& self, const Tensor& other);
BRASA_API Tensor min(const Tensor& self, const Tensor& other);
BRASA_API Tensor greater(const Tensor& self, const Tensor& other);
BRASA_API Tensor less(const Tensor& self, const Tensor& other);

// ---- unary ----
// Float ops (exp, log, sin, sigmoid, erfinv, ...) promote integral and bool inputs to the default
// float dtype; neg/abs/floor/ceil/round/trunc/relu keep the input dtype and refuse bool; frac is
// for floating dtypes only; bitwise_not for integral and bool only; round is half-to-even.
// isnan/isinf/isfinite/logical_not return Bool. `_out` forms of dtype-keeping ops need out's dtype
// to equal the input's (TypeError otherwise); float ops accept any out dtype the result can be cast
// to.
#define BRASA_UNARY_FREE_FUNCTIONS(name)     \
  BRASA_API Tensor name(const Tensor& self); \
  BRASA_API Tensor& name##_out(Tensor& out, const Tensor& self);
BRASA_UNARY_FREE_FUNCTIONS(neg)
BRASA_UNARY_FREE_FUNCTIONS(negative)
BRASA_UNARY_FREE_FUNCTIONS(reciprocal)
BRASA_UNARY_FREE_FUNCTIONS(abs)
BRASA_UNARY_FREE_FUNCTIONS(absolute)
BRASA_UNARY_FREE_FUNCTIONS(sign)
BRASA_UNARY_FREE_FUNCTIONS(exp)
BRASA_UNARY_FREE_FUNCTIONS(exp2)
BRASA_UNARY_FREE_FUNCTIONS(expm1)
BRASA_UNARY_FREE_FUNCTIONS(log)
BRASA_UNARY_FREE_FUNCTIONS(log2)
BRASA_UNARY_FREE_FUNCTIONS(log10)
BRASA_UNARY_FREE_FUNCTIONS(log1p)
BRASA_UNARY_FREE_FUNCTIONS(sqrt)
BRASA_UNARY_FREE_FUNCTIONS(rsqrt)
BRASA_UNARY_FREE_FUNCTIONS(square)
BRASA_UNARY_FREE_FUNCTIONS(sin)
BRASA_UNARY_FREE_FUNCTIONS(cos)
BRASA_UNARY_FREE_FUNCTIONS(tan)
BRASA_UNARY_FREE_FUNCTIONS(asin)
BRASA_UNARY_FREE_FUNCTIONS(acos)
BRASA_UNARY_FREE_FUNCTIONS(atan)
BRASA_UNARY_FREE_FUNCTIONS(sinh)
BRASA_UNARY_FREE_FUNCTIONS(cosh)
BRASA_UNARY_FREE_FUNCTIONS(tanh)
BRASA_UNARY_FREE_FUNCTIONS(sigmoid)
BRASA_UNARY_FREE_FUNCTIONS(erf)
BRASA_UNARY_FREE_FUNCTIONS(erfinv)
BRASA_UNARY_FREE_FUNCTIONS(floor)
BRASA_UNARY_FREE_FUNCTIONS(ceil)
BRASA_UNARY_FREE_FUNCTIONS(round)
BRASA_UNARY_FREE_FUNCTIONS(trunc)
BRASA_UNARY_FREE_FUNCTIONS(frac)
BRASA_UNARY_FREE_FUNCTIONS(relu)
BRASA_UNARY_FREE_FUNCTIONS(logical_not)
BRASA_UNARY_FREE_FUNCTIONS(bitwise_not)
#undef BRASA_UNARY_FREE_FUNCTIONS
BRASA_API Tensor isnan(const Tensor& self);
BRASA_API Tensor isinf(const Tensor& self);
BRASA_API Tensor isfinite(const Tensor& self);

// ---- clamp, lerp, where, masked_fill, nan_to_num ----
/// clamp: the result dtype is the promotion of self with min and max (scalars don't widen within a
/// category); out's dtype must equal it. A Scalar bound that doesn't fit the dtype throws
/// ValueError; no bound throws ValueError. NaN in self stays NaN; min > max gives max. As in
/// PyTorch 1.13, a NaN Scalar bound makes every element NaN when both bounds (or
/// clamp_min/clamp_max) are given and is ignored when it is the only bound of clamp; NaN in a
/// Tensor bound propagates elementwise.
BRASA_API Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
                       const std::optional<Scalar>& max = std::nullopt);
BRASA_API Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
                       const std::optional<Tensor>& max = {});
BRASA_API Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                            const std::optional<Scalar>& max = std::nullopt);
BRASA_API Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                            const std::optional<Tensor>& max = {});
BRASA_API Tensor clip(const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max = std::nullopt);
BRASA_API Tensor clamp_min(const Tensor& self, const Scalar& min);
BRASA_API Tensor clamp_min(const Tensor& self, const Tensor& min);
BRASA_API Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Scalar& min);
BRASA_API Tensor clamp_max(const Tensor& self, const Scalar& max);
BRASA_API Tensor clamp_max(const Tensor& self, const Tensor& max);
BRASA_API Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Scalar& max);
/// self + weight * (end - self) for floating dtypes; end (and a Tensor weight) must have self's
/// dtype (TypeError otherwise); all three broadcast.
BRASA_API Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
BRASA_API Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
BRASA_API Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end,
                           const Scalar& weight);
BRASA_API Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end,
                           const Tensor& weight);
/// Elementwise condition ? self : other; condition is Bool (or Byte), the three broadcast and the
/// result has the promoted dtype of self and other. Throws TypeError for another condition dtype.
BRASA_API Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
BRASA_API Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
BRASA_API Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
BRASA_API Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);
BRASA_API Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self,
                            const Tensor& other);
/// self with `value` where mask (Bool or Byte, broadcast with self) is true; keeps self's dtype.
/// A Tensor value must be 0-d (ValueError otherwise).
BRASA_API Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
BRASA_API Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
/// Replaces NaN (default 0), +inf (default: the dtype's max) and -inf (default: its lowest);
/// integral and bool tensors are copied. out must have self's dtype.
BRASA_API Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                            std::optional<double> posinf = std::nullopt,
                            std::optional<double> neginf = std::nullopt);
BRASA_API Tensor& nan_to_num_out(Tensor& out, const Tensor& self,
                                 std::optional<double> nan = std::nullopt,
                                 std::optional<double> posinf = std::nullopt,
                                 std::optional<double> neginf = std::nullopt);

}  // namespace brasa
