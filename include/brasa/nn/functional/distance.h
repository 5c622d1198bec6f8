#pragma once
// F::pdist (libtorch's torch/nn/functional/distance.h; F::cosine_similarity and
// F::pairwise_distance are in normalization.h): the p-norm distances between the rows of a
// 2-d floating input, as brasa::pdist computes them.

#include "brasa/core/tensor.h"

namespace brasa::nn::functional {

/// input [N, M] -> [N * (N - 1) / 2], the distances of the row pairs i < j in row-major order.
/// ValueError for another rank or p < 0; TypeError for a non-floating input.
BRASA_API Tensor pdist(const Tensor& input, double p = 2.0);

}  // namespace brasa::nn::functional
