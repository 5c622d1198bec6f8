#pragma once
// Pooling and resampling (ATen spellings): max/avg/adaptive pooling, nearest/bilinear upsampling,
// padding, pixel shuffle and im2col/col2im, with the backward ops autograd uses. Inputs are
// [N, C, *spatial] or, where PyTorch allows it, batch-less [C, *spatial]; floating dtypes only
// (TypeError otherwise; Half/BFloat16 are computed in float). Bad shapes or parameters throw
// ValueError naming the op and the shapes. An empty stride means stride = kernel_size; int lists
// of one element apply to every spatial dim.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// [N, C, *k] -> pooled max over windows (dilation, padding with -inf, ceil_mode as PyTorch).
BRASA_API Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
BRASA_API Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
BRASA_API Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, IntArrayRef dilation = 1,
                            bool ceil_mode = false);
/// (values, int64 indices): indices are flat offsets within each input plane.
BRASA_API std::tuple<Tensor, Tensor> max_pool1d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);
BRASA_API std::tuple<Tensor, Tensor> max_pool2d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);
BRASA_API std::tuple<Tensor, Tensor> max_pool3d_with_indices(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
    IntArrayRef dilation = 1, bool ceil_mode = false);
/// Gradient wrt self: grad_output scattered (summed) to `indices`.
BRASA_API Tensor max_pool1d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                  IntArrayRef kernel_size, IntArrayRef stride,
                                                  IntArrayRef padding, IntArrayRef dilation,
                                                  bool ceil_mode, const Tensor& indices);
BRASA_API Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                  IntArrayRef kernel_size, IntArrayRef stride,
                                                  IntArrayRef padding, IntArrayRef dilation,
                                                  bool ceil_mode, const Tensor& indices);
BRASA_API Tensor max_pool3d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                  IntArrayRef kernel_size, IntArrayRef stride,
                                                  IntArrayRef padding, IntArrayRef dilation,
                                                  bool ceil_mode, const Tensor& indices);

/// Window means (zero padding counted when count_include_pad; divisor_override replaces the count).
BRASA_API Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true);
BRASA_API Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true,
                            std::optional<int64_t> divisor_override = std::nullopt);
BRASA_API Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {},
                            IntArrayRef padding = 0, bool ceil_mode = false,
                            bool count_include_pad = true,
                            std::optional<int64_t> divisor_override = std::nullopt);
BRASA_API Tensor avg_pool1d_backward(const Tensor& grad_output, const Tensor& self,
                                     IntArrayRef kernel_size, IntArrayRef stride,
                                     IntArrayRef padding, bool ceil_mode, bool count_include_pad);
BRASA_API Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                     IntArrayRef kernel_size, IntArrayRef stride,
                                     IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                     std::optional<int64_t> divisor_override);
BRASA_API Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self,
                                     IntArrayRef kernel_size, IntArrayRef stride,
                                     IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                     std::optional<int64_t> divisor_override);

/// Adaptive pooling to `output_size` (one entry per spatial dim).
BRASA_API Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size);
BRASA_API Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);
BRASA_API Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size);
BRASA_API Tensor adaptive_avg_pool1d_backward(const Tensor& grad_output, const Tensor& self);
BRASA_API Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self);
BRASA_API Tensor adaptive_avg_pool3d_backward(const Tensor& grad_output, const Tensor& self);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self,
                                                         IntArrayRef output_size);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self,
                                                         IntArrayRef output_size);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self,
                                                         IntArrayRef output_size);
BRASA_API Tensor adaptive_max_pool1d_backward(const Tensor& grad_output, const Tensor& self,
                                              const Tensor& indices);
BRASA_API Tensor adaptive_max_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                              const Tensor& indices);
BRASA_API Tensor adaptive_max_pool3d_backward(const Tensor& grad_output, const Tensor& self,
                                              const Tensor& indices);

/// [N, C, *in] -> [N, C, *output_size]; a scale s (optional) maps output index o to o / s.
BRASA_API Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size,
                                    std::optional<double> scales = std::nullopt);
BRASA_API Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size,
                                    std::optional<double> scales_h = std::nullopt,
                                    std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_nearest3d(const Tensor& self, IntArrayRef output_size,
                                    std::optional<double> scales_d = std::nullopt,
                                    std::optional<double> scales_h = std::nullopt,
                                    std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size,
                                     bool align_corners,
                                     std::optional<double> scales_h = std::nullopt,
                                     std::optional<double> scales_w = std::nullopt);
/// Gradients wrt an input of shape `input_size` ([N, C, *in]).
BRASA_API Tensor upsample_nearest1d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                             IntArrayRef input_size,
                                             std::optional<double> scales = std::nullopt);
BRASA_API Tensor upsample_nearest2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                             IntArrayRef input_size,
                                             std::optional<double> scales_h = std::nullopt,
                                             std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_nearest3d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                             IntArrayRef input_size,
                                             std::optional<double> scales_d = std::nullopt,
                                             std::optional<double> scales_h = std::nullopt,
                                             std::optional<double> scales_w = std::nullopt);
BRASA_API Tensor upsample_bilinear2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                              IntArrayRef input_size, bool align_corners,
                                              std::optional<double> scales_h = std::nullopt,
                                              std::optional<double> scales_w = std::nullopt);

/// Pads the last pad.size() / 2 dims with `value` (pairs from the last dim; negative pads crop).
/// Any dtype.
BRASA_API Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
/// Reflect (mirror without the edge; pads < input size), replicate (edge) and circular (wrap;
/// pads <= input size) padding of the last 1/2/3 dims; padding = (left, right[, top, bottom[,
/// front, back]]).
BRASA_API Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor reflection_pad3d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor replication_pad1d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor replication_pad2d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor replication_pad3d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor circular_pad1d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor circular_pad2d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor circular_pad3d(const Tensor& self, IntArrayRef padding);
BRASA_API Tensor reflection_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                           IntArrayRef padding);
BRASA_API Tensor reflection_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                           IntArrayRef padding);
BRASA_API Tensor reflection_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                           IntArrayRef padding);
BRASA_API Tensor replication_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                            IntArrayRef padding);
BRASA_API Tensor replication_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                            IntArrayRef padding);
BRASA_API Tensor replication_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                            IntArrayRef padding);
BRASA_API Tensor circular_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                         IntArrayRef padding);
BRASA_API Tensor circular_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                         IntArrayRef padding);
BRASA_API Tensor circular_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                         IntArrayRef padding);

/// [*, C * r^2, H, W] -> [*, C, H * r, W * r], and the inverse. Any dtype.
BRASA_API Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
BRASA_API Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);

/// [N, C, H, W] (or [C, H, W]) -> sliding blocks as columns [N, C * kh * kw, L].
BRASA_API Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
                        IntArrayRef padding, IntArrayRef stride);
/// [N, C * kh * kw, L] (or 2-D) -> [N, C, *output_size], overlapping blocks summed.
BRASA_API Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                        IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride);

}  // namespace brasa
