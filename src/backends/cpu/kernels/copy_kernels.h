#pragma once
#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {
/// Copies operand 1 into operand 0 converting dtypes (the iterator keeps each operand's dtype).
using CopyKernel = void (*)(cpu::TensorIterator& it);
BRASA_DECLARE_STUB(copy_stub, CopyKernel);
/// fill_: writes `value` (converted to the iterator's output dtype) into operand 0.
using FillKernel = void (*)(cpu::TensorIterator& it, const Scalar& value);
BRASA_DECLARE_STUB(fill_stub, FillKernel);

}  // namespace brasa::ops
