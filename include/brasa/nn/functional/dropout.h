#pragma once
// Dropout functionals (torch::nn::functional spellings). Masks are drawn from `generator` (else the
// default generator, see manual_seed). Not training or p == 0: the input itself is returned.
// ValueError unless 0 <= p <= 1; floating inputs only (TypeError otherwise).

#include <optional>

#include "brasa/core/generator.h"
#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"

namespace brasa::nn::functional {

struct BRASA_API DropoutFuncOptions {
  BRASA_ARG(double, p) = 0.5;
  BRASA_ARG(bool, training) = true;
  BRASA_ARG(bool, inplace) = false;
};
using Dropout2dFuncOptions = DropoutFuncOptions;
using Dropout3dFuncOptions = DropoutFuncOptions;
struct BRASA_API AlphaDropoutFuncOptions {
  BRASA_ARG(double, p) = 0.5;
  BRASA_ARG(bool, training) = false;
  BRASA_ARG(bool, inplace) = false;
};

/// Zeroes each element with probability p and scales the rest by 1 / (1 - p).
BRASA_API Tensor dropout(const Tensor& input, const DropoutFuncOptions& options = {},
                         std::optional<Generator> generator = std::nullopt);
/// Zeroes whole channels: one draw per (N, C) of an input [N, C, *] (at least 2 dims).
BRASA_API Tensor dropout2d(const Tensor& input, const Dropout2dFuncOptions& options = {},
                           std::optional<Generator> generator = std::nullopt);
/// Like dropout2d, for [N, C, D, H, W] inputs.
BRASA_API Tensor dropout3d(const Tensor& input, const Dropout3dFuncOptions& options = {},
                           std::optional<Generator> generator = std::nullopt);
/// Dropout for SELU networks: dropped elements take SELU's negative saturation value, then an
/// affine map keeps zero mean and unit variance.
BRASA_API Tensor alpha_dropout(const Tensor& input, const AlphaDropoutFuncOptions& options = {},
                               std::optional<Generator> generator = std::nullopt);

}  // namespace brasa::nn::functional
