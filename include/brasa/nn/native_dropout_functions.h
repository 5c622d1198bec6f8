#pragma once
// Dropouts beside nn/dropout_functions.h and nn/functional/dropout.h (same conventions: masks
// from `generator` or the default generator, ValueError unless 0 <= p <= 1, TypeError for
// integral inputs): feature alpha dropout as torch::nn::functional and at:: spell it, and
// libtorch's at::native_dropout, which also returns its mask.

#include <optional>
#include <tuple>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/functional/dropout.h"

namespace brasa {
namespace nn::functional {

using FeatureAlphaDropoutFuncOptions = AlphaDropoutFuncOptions;
/// alpha_dropout with one draw per (N, C) channel of an input [N, C, *] (at least 2 dims).
BRASA_API Tensor feature_alpha_dropout(const Tensor& input,
                                       const FeatureAlphaDropoutFuncOptions& options = {},
                                       std::optional<Generator> generator = std::nullopt);

}  // namespace nn::functional

/// at:: form of feature_alpha_dropout, with libtorch's positional p and train.
BRASA_API Tensor feature_alpha_dropout(const Tensor& input, double p, bool train);
BRASA_API Tensor& feature_alpha_dropout_(Tensor& self, double p, bool train);
/// (output, Bool keep-mask): dropout's output and the mask it used; train absent means training.
/// Not training: (a copy of the input, an all-true mask).
BRASA_API std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p,
                                                    std::optional<bool> train);

}  // namespace brasa
