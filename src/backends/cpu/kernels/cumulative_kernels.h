#pragma once
// Kernels of cummax/cummin and logcumsumexp (src/ops/reduce/cumulative_ops.cpp): like the scans of
// scan_softmax_sort_kernels.h, each sees a contiguous input viewed as [outer, n, inner] (n: the
// op's dim) and contiguous outputs of the input's shape.

#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"

namespace brasa::ops {

/// values/indices = running max (or min) along the line and where it was last reached.
using CumExtremeKernel = void (*)(const Tensor& values, const Tensor& indices, const Tensor& in,
                                  LineShape s, bool is_min);
BRASA_DECLARE_STUB(cum_extreme_stub, CumExtremeKernel);
/// out = log(cumsum(exp(in))) along the line; one floating dtype.
using LogCumSumExpKernel = void (*)(const Tensor& out, const Tensor& in, LineShape s);
BRASA_DECLARE_STUB(logcumsumexp_stub, LogCumSumExpKernel);

}  // namespace brasa::ops
