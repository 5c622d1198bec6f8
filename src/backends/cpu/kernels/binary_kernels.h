#pragma once
// The binary pointwise family's kernel interface: per op, one loop over an IterRef (a
// TensorIterator, or a FlatIterator on the flat fast path: Note [Flat fast path]), registered per
// CPU capability in binary_kernels.cpp and called from src/ops/pointwise/binary_ops.cpp.

#include "backends/cpu/iter_ref.h"
#include "backends/cpu/stub.h"

namespace brasa::ops {

using BinaryKernel = void (*)(cpu::IterRef it, const Scalar& alpha);

BRASA_DECLARE_STUB(add_stub, BinaryKernel);
BRASA_DECLARE_STUB(sub_stub, BinaryKernel);
BRASA_DECLARE_STUB(mul_stub, BinaryKernel);
BRASA_DECLARE_STUB(div_stub, BinaryKernel);
BRASA_DECLARE_STUB(div_trunc_stub, BinaryKernel);
BRASA_DECLARE_STUB(floor_divide_stub, BinaryKernel);
BRASA_DECLARE_STUB(remainder_stub, BinaryKernel);
BRASA_DECLARE_STUB(fmod_stub, BinaryKernel);
BRASA_DECLARE_STUB(pow_stub, BinaryKernel);
BRASA_DECLARE_STUB(atan2_stub, BinaryKernel);
BRASA_DECLARE_STUB(hypot_stub, BinaryKernel);
BRASA_DECLARE_STUB(maximum_stub, BinaryKernel);
BRASA_DECLARE_STUB(minimum_stub, BinaryKernel);
BRASA_DECLARE_STUB(threshold_backward_stub, BinaryKernel);
BRASA_DECLARE_STUB(eq_stub, BinaryKernel);
BRASA_DECLARE_STUB(ne_stub, BinaryKernel);
BRASA_DECLARE_STUB(lt_stub, BinaryKernel);
BRASA_DECLARE_STUB(le_stub, BinaryKernel);
BRASA_DECLARE_STUB(gt_stub, BinaryKernel);
BRASA_DECLARE_STUB(ge_stub, BinaryKernel);
BRASA_DECLARE_STUB(logical_and_stub, BinaryKernel);
BRASA_DECLARE_STUB(logical_or_stub, BinaryKernel);
BRASA_DECLARE_STUB(logical_xor_stub, BinaryKernel);
BRASA_DECLARE_STUB(bitwise_and_stub, BinaryKernel);
BRASA_DECLARE_STUB(bitwise_or_stub, BinaryKernel);
BRASA_DECLARE_STUB(bitwise_xor_stub, BinaryKernel);

}  // namespace brasa::ops
