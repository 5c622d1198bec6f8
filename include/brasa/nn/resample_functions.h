#pragma once
// Resampling ops in libtorch's at:: / torch:: spelling: the interpolating upsamplers that
// nn::functional::interpolate runs for "linear", "bicubic" and "trilinear" (the same
// computation), max unpooling, and the affine grid of F::affine_grid. Floating inputs (TypeError
// otherwise); ValueError naming the op for shapes that do not fit.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// [N, C, W] -> [N, C, output_size[0]]; a scale s maps output index o to o / s (align_corners off).
BRASA_API Tensor upsample_linear1d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                                   std::optional<double> scales = std::nullopt);
/// output_size, or the input's sizes times scale_factors (floored), exactly one of them given.
BRASA_API Tensor upsample_linear1d(const Tensor& input, OptionalIntArrayRef output_size,
                                   bool align_corners, OptionalArrayRef<double> scale_factors);
/// [N, C, H, W] -> [N, C, *output_size], PyTorch's cubic convolution (A = -0.75).
BRASA_API Tensor upsample_bicubic2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                                    std::optional<double> scales_h = std::nullopt,
                                    std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_bicubic2d(const Tensor& input, OptionalIntArrayRef output_size,
                                    bool align_corners, OptionalArrayRef<double> scale_factors);
/// [N, C, D, H, W] -> [N, C, *output_size].
BRASA_API Tensor upsample_trilinear3d(const Tensor& self, IntArrayRef output_size,
                                      bool align_corners,
                                      std::optional<double> scales_d = std::nullopt,
                                      std::optional<double> scales_h = std::nullopt,
                                      std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_trilinear3d(const Tensor& input, OptionalIntArrayRef output_size,
                                      bool align_corners, OptionalArrayRef<double> scale_factors);

/// Inverse of max_pool2d: self and indices [N, C, H, W] (or [C, H, W]), indices into each
/// plane of output_size [oH, oW]; other outputs are 0. IndexError for an index out of range.
BRASA_API Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size);
/// The same for [N, C, D, H, W] (or [C, D, H, W]) and output_size [oD, oH, oW]; stride and
/// padding must have 3 elements (libtorch checks them; the indices locate the values).
BRASA_API Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                              IntArrayRef stride, IntArrayRef padding);

/// theta [N, 2, 3] and size [N, C, H, W] -> grid [N, H, W, 2] (or theta [N, 3, 4] and size
/// [N, C, D, H, W] -> [N, D, H, W, 3]): the affine maps of the normalised output coordinates.
BRASA_API Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners);

/// Samples input [N, C, H, W] at grid [N, H_out, W_out, 2] ((x, y) in [-1, 1]) ->
/// [N, C, H_out, W_out]; interpolation_mode 0 bilinear, 1 nearest, 2 bicubic; padding_mode 0
/// zeros, 1 border, 2 reflection (libtorch's GridSamplerInterpolation / GridSamplerPadding).
BRASA_API Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid,
                                 int64_t interpolation_mode, int64_t padding_mode,
                                 bool align_corners);
/// The same for input [N, C, D, H, W] and grid [N, D_out, H_out, W_out, 3] (bilinear and nearest).
BRASA_API Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid,
                                 int64_t interpolation_mode, int64_t padding_mode,
                                 bool align_corners);
/// grid_sampler_2d or grid_sampler_3d by the input's rank.
BRASA_API Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners);

/// Fractional max pooling of self [N, C, H, W] (or [C, H, W]) to output_size with windows of
/// kernel_size placed by random_samples [N, C, 2] in [0, 1) -> (output, indices into each plane).
BRASA_API std::tuple<Tensor, Tensor> fractional_max_pool2d(const Tensor& self,
                                                           IntArrayRef kernel_size,
                                                           IntArrayRef output_size,
                                                           const Tensor& random_samples);
/// The same for [N, C, D, H, W] (or [C, D, H, W]) with random_samples [N, C, 3].
BRASA_API std::tuple<Tensor, Tensor> fractional_max_pool3d(const Tensor& self,
                                                           IntArrayRef kernel_size,
                                                           IntArrayRef output_size,
                                                           const Tensor& random_samples);

}  // namespace brasa
