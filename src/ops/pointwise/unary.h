#pragma once
// Shared front end of the unary pointwise ops (exp, neg, floor, isnan, ...): each op is a
// dispatched Op taking (self, out) where an undefined `out` means "allocate" and in-place forms
// pass out = self. The iterator is the shape rule: the meta function (unary_meta) builds it and
// stops, the CPU kernel builds it and runs the loop (Note [Meta functions]).

#include "backends/cpu/kernels/unary_kernels.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

using UnaryOp = Op<Tensor(const Tensor&, const Tensor&)>;

enum class UnaryKind : uint8_t {
  Float,      // integral and bool inputs promote to the default float; out= may be any safe cast
  Same,       // result in the input's dtype; out= must have exactly that dtype
  Numeric,    // like Same, but bool inputs are refused (neg, floor, relu, ...)
  Abs,        // like Numeric, but a complex input gives its real value type (abs)
  Square,     // like Same, but bool becomes Long (square is pow(x, 2))
  Predicate,  // result is Bool (isnan, isinf, isfinite)
  Logical,    // result is Bool by default; out= may have any dtype (logical_not)
};

/// Builds the iterator for a unary op (dtype rules of `kind` and out= checks included).
BRASA_API cpu::TensorIterator make_unary_iterator(const char* name, UnaryKind kind,
                                                  const Tensor& self, const Tensor& out);

}  // namespace brasa::ops
