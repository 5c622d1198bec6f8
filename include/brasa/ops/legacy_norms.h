#pragma once
// libtorch 1.13's older norm functions (`torch::frobenius_norm`, `torch::nuclear_norm`,
// `torch::norm_except_dim`, which weight_norm uses), written with torch.linalg's norms so that
// their values and gradients are those norms'. Floating or complex inputs (TypeError otherwise);
// ValueError naming the function for dims that do not fit.

#include <cstdint>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// sqrt(sum(|x|^2)) over all elements, 0-d.
BRASA_API Tensor frobenius_norm(const Tensor& self);
/// The same over `dim` (at most 2 dims; none: all), keeping reduced dims as 1 with keepdim.
BRASA_API Tensor frobenius_norm(const Tensor& self, IntArrayRef dim, bool keepdim = false);
/// The sum of the singular values of a 2-d self.
BRASA_API Tensor nuclear_norm(const Tensor& self, bool keepdim = false);
/// The same over the 2 dims `dim` of a batch of matrices.
BRASA_API Tensor nuclear_norm(const Tensor& self, IntArrayRef dim, bool keepdim = false);
/// The pow-norm of v over every dim but `dim`, shaped [1, .., v.size(dim), .., 1]; dim -1: the
/// norm of the whole tensor, 0-d.
BRASA_API Tensor norm_except_dim(const Tensor& v, int64_t pow = 2, int64_t dim = 0);

}  // namespace brasa
