#pragma once
// CPU stubs of the ops that work on lines along one dim: cumsum/cumprod, softmax/log_softmax, sort
// and topk. Each kernel sees a contiguous input viewed as [outer, n, inner] (n: the op's dim) and
// contiguous outputs of the result shape.

#include "backends/cpu/stub.h"
#include "brasa/core/tensor.h"

namespace brasa::ops {

/// Geometry of a contiguous tensor around `dim`.
struct LineShape {
  int64_t outer = 1, n = 1, inner = 1;
};
LineShape line_shape(IntArrayRef sizes, int64_t dim);

/// out = cumsum (or cumprod) of in; both of one dtype.
using ScanKernel = void (*)(const Tensor& out, const Tensor& in, LineShape s, bool prod);
BRASA_DECLARE_STUB(scan_stub, ScanKernel);
/// out = softmax (or log_softmax) of in; both of one floating dtype.
using SoftmaxKernel = void (*)(const Tensor& out, const Tensor& in, LineShape s, bool log);
BRASA_DECLARE_STUB(softmax_stub, SoftmaxKernel);
/// The first k entries of each line in order (descending: largest first, NaN counting as largest).
/// Ties keep their input order; with k < n (topk) the selection is partial.
using SortKernel = void (*)(const Tensor& values, const Tensor& indices, const Tensor& in,
                            LineShape s, int64_t k, bool descending);
BRASA_DECLARE_STUB(sort_stub, SortKernel);

}  // namespace brasa::ops
