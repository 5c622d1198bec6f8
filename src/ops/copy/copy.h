#pragma once
#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {
/// Copies operand 1 into operand 0 converting dtypes (the iterator keeps each operand's dtype).
using CopyKernel = void (*)(cpu::TensorIterator& it);
BRASA_DECLARE_STUB(copy_stub, CopyKernel);
/// fill_: writes `value` (converted to the iterator's output dtype) into operand 0.
using FillKernel = void (*)(cpu::TensorIterator& it, const Scalar& value);
BRASA_DECLARE_STUB(fill_stub, FillKernel);

// The dispatched ops (Note [Op declarations]): kernels in copy.cpp, derivatives in copy_grad.cpp.
BRASA_DECLARE_OP(copy_op, "copy_", "copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)",
                 Tensor(const Tensor&, const Tensor&));
BRASA_DECLARE_OP(fill_op, "fill_", "fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)",
                 Tensor(const Tensor&, const Scalar&));
}  // namespace brasa::ops
