#pragma once
// interpolate's linear, trilinear and bicubic modes as composites of index_select and products
// with fixed weights (so autograd differentiates them), one spatial dim at a time: PyTorch's
// kernels are separable products of per-dim weights, so interpolating dim by dim gives the same
// values up to rounding.

#include <optional>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::nn::functional::detail {

/// input [N, C, *spatial] resized to `output_size` along every spatial dim: linear weights over
/// two neighbours, or (cubic) PyTorch's cubic convolution (A = -0.75) over four, with indices
/// clamped at the borders. scales are the user's scale factors (used for the source coordinates
/// when given and align_corners is off, as in PyTorch).
Tensor interpolate_separable(const Tensor& input, IntArrayRef output_size, bool align_corners,
                             const std::vector<std::optional<double>>& scales, bool cubic);

}  // namespace brasa::nn::functional::detail
