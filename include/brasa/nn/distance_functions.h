#pragma once
// The distance functions of libtorch's at:: / torch:: namespace (`torch::pdist(x)`,
// `torch::cosine_similarity(a, b, 1)`): libtorch 1.13's signatures and defaults. Floating inputs
// only (TypeError otherwise); pairwise_distance and cosine_similarity are nn::functional's
// (nn/functional/normalization.h).

#include <cstdint>

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// ||x1 - x2 + eps||_p along the last dim (inputs broadcast).
BRASA_API Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2,
                                   double eps = 1e-06, bool keepdim = false);
/// sum(x1 * x2) / max(||x1|| * ||x2||, eps) along dim (inputs broadcast).
BRASA_API Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1,
                                   double eps = 1e-08);
/// self [N, M] -> the p-norm distances of the N * (N - 1) / 2 row pairs (i < j, row-major);
/// ValueError for another rank or p < 0.
BRASA_API Tensor pdist(const Tensor& self, double p = 2);
/// ||self - other||_p over all elements (inputs broadcast), 0-d.
BRASA_API Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p = 2);

}  // namespace brasa
