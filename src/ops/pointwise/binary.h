#pragma once
// Shared front end of the binary pointwise ops (add, mul, eq, bitwise_and, ...): each op is a
// dispatched Op taking (self, other, alpha, out) where an undefined `out` means "allocate", and
// in-place forms pass out = self. The iterator is the shape rule: the meta function
// (binary_meta) builds it and stops, the CPU kernel builds it and runs the loop
// (Note [Meta functions]).

#include "backends/cpu/kernels/binary_kernels.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

using BinaryOp = Op<Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&)>;

enum class BinaryKind : uint8_t {
  Arith,       // result in the promoted dtype
  TrueDivide,  // integral results promote to the default float
  Compare,     // result is Bool; inputs compared in their promoted dtype
  Logical,     // result is Bool; inputs compared in their promoted dtype
  Bitwise,     // integral and bool only
  Float,       // like TrueDivide: atan2
  FloatOnly,   // floating dtypes only, no promotion of integers: hypot
  Subtract,    // Arith, but bool operands are refused
};

/// Builds the iterator for a binary op (shape, dtype and device checks included).
/// The result dtype when (a, b, out) can take the flat fast path (Note [Flat fast path]): both
/// contiguous CPU tensors of one shape and dtype, no out=, and arguments the op accepts as they
/// are.
BRASA_API std::optional<ScalarType> flat_binary_dtype(BinaryKind kind, const Tensor& a,
                                                      const Tensor& b, const Scalar& alpha,
                                                      const Tensor& out);

/// The result dtype when a one-element contiguous CPU `a` meets a 0-d CPU `b` that does not
/// promote it (a scalar of the same or a lower category): the flat path then reads b converted to
/// a's dtype (detail::store_scalar).
BRASA_API std::optional<ScalarType> flat_scalar_binary_dtype(BinaryKind kind, const Tensor& a,
                                                             const Tensor& b, const Scalar& alpha,
                                                             const Tensor& out);

/// `alpha` is checked against the result dtype (a floating alpha needs a floating result).
BRASA_API cpu::TensorIterator make_binary_iterator(const char* name, BinaryKind kind,
                                                   const Tensor& a, const Tensor& b,
                                                   const Scalar& alpha, const Tensor& out);

}  // namespace brasa::ops
