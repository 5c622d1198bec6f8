#pragma once
// The dropout functions of libtorch's at:: / torch:: namespace (`torch::dropout(x, 0.5,
// is_training())`): nn::functional's dropouts (nn/functional/dropout.h: masks from the default
// generator, ValueError unless 0 <= p <= 1, TypeError for integral inputs) with libtorch 1.13's
// positional `p` and `train`, which have no defaults. Not training: the input itself. The `_`
// forms change self in place and return it.

#include "brasa/core/tensor.h"

namespace brasa {

/// Zeroes each element with probability p and scales the rest by 1 / (1 - p).
BRASA_API Tensor dropout(const Tensor& input, double p, bool train);
BRASA_API Tensor& dropout_(Tensor& self, double p, bool train);
/// Zeroes whole channels: one draw per (N, C) of an input [N, C, *].
BRASA_API Tensor feature_dropout(const Tensor& input, double p, bool train);
BRASA_API Tensor& feature_dropout_(Tensor& self, double p, bool train);
/// Dropout that keeps SELU's mean and variance.
BRASA_API Tensor alpha_dropout(const Tensor& input, double p, bool train);
BRASA_API Tensor& alpha_dropout_(Tensor& self, double p, bool train);

}  // namespace brasa
