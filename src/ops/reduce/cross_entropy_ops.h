#pragma once
// Cross-entropy of [N, C] logits against class indices as one dispatched op (and its backward):
// log_softmax and the pick of each row's target in one pass over the row, with no data-dependent
// choice, so compile captures it (Note [Cross-entropy fast path] in nn/functional/loss.cpp).
// Kernels in cross_entropy_ops.cpp (loops in backends/cpu/kernels/cross_entropy_kernels.cpp),
// derivatives in cross_entropy_grad.cpp. `reduction` is aten's enum: 0 none, 1 mean, 2 sum;
// targets equal to `ignore_index` count for nothing (mean divides by the others' count).

#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(softmax_cross_entropy_op, "_softmax_cross_entropy",
                 "_softmax_cross_entropy(Tensor self, Tensor target, int reduction, "
                 "int ignore_index) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, int64_t, int64_t));
BRASA_ATEN(softmax_cross_entropy_op,
           "none: aten's cross_entropy_loss is a composite of log_softmax and nll_loss");
BRASA_DECLARE_OP(softmax_cross_entropy_backward_op, "_softmax_cross_entropy_backward",
                 "_softmax_cross_entropy_backward(Tensor grad_output, Tensor self, Tensor target, "
                 "int reduction, int ignore_index) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t));
BRASA_ATEN(softmax_cross_entropy_backward_op,
           "none: the backward of brasa's _softmax_cross_entropy");

}  // namespace brasa::ops
