#pragma once
// The sliding-window view `unfold(dimension, size, step)` (libtorch's Tensor::unfold): dim
// `dimension` becomes (size(dimension) - size) / step + 1 windows and a last dim of `size`
// elements is appended, sharing the input's storage. Its gradient is unfold_backward.

#include <cstdint>

#include "brasa/core/tensor.h"

namespace brasa {

/// The gradient of unfold(dim, size, step) for an input of `input_sizes`: each window's gradient
/// added back at the elements it viewed (overlapping windows sum). grad_in has unfold's output
/// shape; ValueError otherwise. Differentiable (its own gradient is unfold of the gradient).
BRASA_API Tensor unfold_backward(const Tensor& grad_in, IntArrayRef input_sizes, int64_t dim,
                                 int64_t size, int64_t step);

}  // namespace brasa
