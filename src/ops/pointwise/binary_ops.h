#pragma once
// The binary pointwise family: one line per op (name, kind). The list declares each op's CPU stub;
// binary_ops.cpp defines the dispatched ops and API from it, and
// backends/cpu/kernels/binary_kernels.cpp gives each its loop.

#include "ops/pointwise/binary.h"

#define BRASA_FORALL_BINARY_OPS(_) \
  _(add, Arith)                    \
  _(sub, Subtract)                 \
  _(mul, Arith)                    \
  _(div, TrueDivide)               \
  _(div_trunc, Arith)              \
  _(floor_divide, Arith)           \
  _(remainder, Arith)              \
  _(fmod, Arith)                   \
  _(pow, Arith)                    \
  _(atan2, Float)                  \
  _(hypot, FloatOnly)              \
  _(maximum, Arith)                \
  _(minimum, Arith)                \
  _(threshold_backward, Arith)     \
  _(eq, Compare)                   \
  _(ne, Compare)                   \
  _(lt, Compare)                   \
  _(le, Compare)                   \
  _(gt, Compare)                   \
  _(ge, Compare)                   \
  _(logical_and, Logical)          \
  _(logical_or, Logical)           \
  _(logical_xor, Logical)          \
  _(bitwise_and, Bitwise)          \
  _(bitwise_or, Bitwise)           \
  _(bitwise_xor, Bitwise)

namespace brasa::ops {
#define BRASA_DECLARE_BINARY(name, kind)                  \
  BRASA_DECLARE_STUB(name##_stub, BinaryKernel);          \
  BRASA_DECLARE_STUB(name##_flat_stub, FlatBinaryKernel); \
  BRASA_API BinaryOp& name##_op();
BRASA_FORALL_BINARY_OPS(BRASA_DECLARE_BINARY)
#undef BRASA_DECLARE_BINARY
}  // namespace brasa::ops
