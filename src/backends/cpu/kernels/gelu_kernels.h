#pragma once
// The fused GELU's kernel interface (src/ops/pointwise/gelu.cpp): the forward over an iterator
// (out, x) and the backward over (grad_input, grad_output, x); `tanh` picks the tanh
// approximation instead of the exact erf form.

#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

using GeluKernel = void (*)(cpu::TensorIterator& it, bool tanh);

BRASA_DECLARE_STUB(gelu_stub, GeluKernel);
BRASA_DECLARE_STUB(gelu_backward_stub, GeluKernel);

}  // namespace brasa::ops
