#pragma once
// F::affine_grid and F::grid_sample (libtorch's torch/nn/functional/vision.h): the sampling grid of
// a batch of affine matrices, and sampling an input at grid points (bilinear or nearest; zeros,
// border or reflection padding). grid_sample runs the grid_sampler_2d / grid_sampler_3d ops
// (brasa/nn/resample_functions.h), whose derivatives reach both input and grid.

#include <cstdint>
#include <optional>

#include "brasa/core/array_ref.h"
#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/modes.h"

namespace brasa::nn::functional {

struct BRASA_API GridSampleFuncOptions {
  using mode_t = EnumVariant<enumtype::kBilinear, enumtype::kNearest>;
  using padding_mode_t = EnumVariant<enumtype::kZeros, enumtype::kBorder, enumtype::kReflection>;
  BRASA_ARG(mode_t, mode) = enumtype::kBilinear{};
  BRASA_ARG(padding_mode_t, padding_mode) = enumtype::kZeros{};
  /// Absent: false, with libtorch's warning that the default changed in 1.3.0.
  BRASA_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

/// theta [N, 2, 3] with size [N, C, H, W] -> grid [N, H, W, 2]; theta [N, 3, 4] with size
/// [N, C, D, H, W] -> [N, D, H, W, 3]. TypeError for a non-floating theta; ValueError for a theta
/// that does not fit the size, a size of another length or a non-positive size.
BRASA_API Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners = false);

/// input [N, C, H, W] at grid [N, H_out, W_out, 2] -> [N, C, H_out, W_out] (or the 3-d
/// counterparts with [N, D_out, H_out, W_out, 3]); grid values in [-1, 1] span the input.
BRASA_API Tensor grid_sample(const Tensor& input, const Tensor& grid,
                             const GridSampleFuncOptions& options = {});

}  // namespace brasa::nn::functional
