#pragma once
// The pointwise ops with more than one operand or extra arguments: clamp (clamp.cpp), lerp
// (lerp.cpp), where and masked_fill (where.cpp), nan_to_num (nan_to_num.cpp). Their CPU stubs and
// dispatched ops are declared here; the loops are in backends/cpu/kernels/ternary_kernels.cpp and
// the derivatives in ternary_grad.cpp.

#include <optional>

#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

/// Operands: out, self. An absent bound is ignored; with nan_fill every result is NaN.
using ClampScalarKernel = void (*)(cpu::TensorIterator& it, const std::optional<Scalar>& min,
                                   const std::optional<Scalar>& max, bool nan_fill);
/// Operands: out, self, then min if has_min, then max if has_max. NaN bounds propagate.
using ClampTensorKernel = void (*)(cpu::TensorIterator& it, bool has_min, bool has_max);
/// Operands: out, self, end.
using LerpScalarKernel = void (*)(cpu::TensorIterator& it, const Scalar& weight);
/// Operands: out, self, end, weight.
using LerpTensorKernel = void (*)(cpu::TensorIterator& it);
/// Operands: out, condition (Bool or Byte), self, other (self and other of out's dtype).
using WhereKernel = void (*)(cpu::TensorIterator& it);
/// Operands: out, self, mask (Bool or Byte).
using MaskedFillKernel = void (*)(cpu::TensorIterator& it, const Scalar& value);
/// Operands: out, self.
using NanToNumKernel = void (*)(cpu::TensorIterator& it, double nan, std::optional<double> posinf,
                                std::optional<double> neginf);

BRASA_DECLARE_STUB(clamp_scalar_stub, ClampScalarKernel);
BRASA_DECLARE_STUB(clamp_tensor_stub, ClampTensorKernel);
BRASA_DECLARE_STUB(lerp_scalar_stub, LerpScalarKernel);
BRASA_DECLARE_STUB(lerp_tensor_stub, LerpTensorKernel);
BRASA_DECLARE_STUB(where_stub, WhereKernel);
BRASA_DECLARE_STUB(masked_fill_stub, MaskedFillKernel);
BRASA_DECLARE_STUB(nan_to_num_stub, NanToNumKernel);

}  // namespace brasa::ops
