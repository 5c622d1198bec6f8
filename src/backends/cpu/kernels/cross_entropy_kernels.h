#pragma once
// CPU stubs of the fused cross-entropy over class indices (src/ops/reduce/cross_entropy_ops.h):
// x is a contiguous [N, C] Float or Double tensor, target a contiguous Long [N] whose entries
// are in [0, C) or equal to `ignore` (the op checks them before calling).

#include "backends/cpu/stub.h"
#include "brasa/core/tensor.h"

namespace brasa::ops {

/// losses[i] = -log_softmax(x[i])[target[i]], 0 where target[i] == ignore; losses is a contiguous
/// [N] tensor of x's dtype.
using CrossEntropyKernel = void (*)(const Tensor& losses, const Tensor& x, const Tensor& target,
                                    int64_t ignore);
BRASA_DECLARE_STUB(cross_entropy_stub, CrossEntropyKernel);

/// grad[i, :] = (softmax(x[i]) - one_hot(target[i])) * scale[i], 0 where target[i] == ignore;
/// scale is a contiguous Double [N], grad a contiguous tensor of x's shape and dtype.
using CrossEntropyBackwardKernel = void (*)(const Tensor& grad, const Tensor& x,
                                            const Tensor& target, const Tensor& scale,
                                            int64_t ignore);
BRASA_DECLARE_STUB(cross_entropy_backward_stub, CrossEntropyBackwardKernel);

}  // namespace brasa::ops
