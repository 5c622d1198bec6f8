#pragma once
// The unary pointwise family: one line per op (name, kind). The list declares each op's CPU stub;
// unary_ops.cpp defines the dispatched ops and API from it, and the loops are in
// backends/cpu/kernels/unary_kernels*.cpp (transcendental float ops in unary_kernels_float.cpp).

#include "ops/pointwise/unary.h"

#define BRASA_FORALL_UNARY_FLOAT_OPS(_) \
  _(reciprocal, Float)                  \
  _(exp, Float)                         \
  _(exp2, Float)                        \
  _(expm1, Float)                       \
  _(log, Float)                         \
  _(log2, Float)                        \
  _(log10, Float)                       \
  _(log1p, Float)                       \
  _(sqrt, Float)                        \
  _(rsqrt, Float)                       \
  _(sin, Float)                         \
  _(cos, Float)                         \
  _(tan, Float)                         \
  _(asin, Float)                        \
  _(acos, Float)                        \
  _(atan, Float)                        \
  _(sinh, Float)                        \
  _(cosh, Float)                        \
  _(tanh, Float)                        \
  _(sigmoid, Float)                     \
  _(erf, Float)                         \
  _(erfinv, Float)

#define BRASA_FORALL_UNARY_OTHER_OPS(_) \
  _(neg, Numeric)                       \
  _(abs, Numeric)                       \
  _(sign, Same)                         \
  _(square, Square)                     \
  _(floor, Numeric)                     \
  _(ceil, Numeric)                      \
  _(round, Numeric)                     \
  _(trunc, Numeric)                     \
  _(frac, Numeric)                      \
  _(relu, Numeric)                      \
  _(bitwise_not, Same)                  \
  _(logical_not, Logical)               \
  _(isnan, Predicate)                   \
  _(isinf, Predicate)                   \
  _(isfinite, Predicate)

#define BRASA_FORALL_UNARY_OPS(_) \
  BRASA_FORALL_UNARY_FLOAT_OPS(_) \
  BRASA_FORALL_UNARY_OTHER_OPS(_)

namespace brasa::ops {
#define BRASA_DECLARE_UNARY(name, kind)         \
  BRASA_DECLARE_STUB(name##_stub, UnaryKernel); \
  BRASA_API UnaryOp& name##_op();
BRASA_FORALL_UNARY_OPS(BRASA_DECLARE_UNARY)
#undef BRASA_DECLARE_UNARY
}  // namespace brasa::ops
