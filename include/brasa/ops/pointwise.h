#pragma once
// Pointwise ops as free functions (libtorch spellings). Binary ops broadcast and promote dtypes like
// PyTorch; `_out` forms write into `out` (resized when it has no elements) and return it.
// Errors: ValueError for shapes that do not broadcast, TypeError for dtypes an op does not accept
// or a result that can't be cast to an in-place/out= tensor's dtype.

#include <optional>
#include <string_view>

#include "brasa/core/tensor.h"

namespace brasa {

#define BRASA_BINARY_FREE_FUNCTIONS(name)                                       \
  BRASA_API Tensor name(const Tensor& self, const Tensor& other);               \
  BRASA_API Tensor name(const Tensor& self, const Scalar& other);               \
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

}  // namespace brasa
