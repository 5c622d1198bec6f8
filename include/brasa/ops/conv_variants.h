#pragma once
// libtorch's named convolution kernels (`at::thnn_conv2d`, `at::slow_conv3d`,
// `at::slow_conv_transpose2d`, `at::conv_tbc`, ...), which programs and ported code call
// directly: each is brasa's convolution with libtorch 1.13's argument order and defaults.
// kernel_size must equal the weight's spatial sizes (ValueError naming the op otherwise).

#include <cstdint>
#include <optional>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// conv2d of input [N, C_in, H, W] with weight [C_out, C_in, kH, kW].
BRASA_API Tensor thnn_conv2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                             const std::optional<Tensor>& bias = {}, IntArrayRef stride = 1,
                             IntArrayRef padding = 0);
/// conv3d of input [N, C_in, D, H, W].
BRASA_API Tensor slow_conv3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                             const std::optional<Tensor>& bias = {}, IntArrayRef stride = 1,
                             IntArrayRef padding = 0);
BRASA_API Tensor slow_conv3d_forward(const Tensor& self, const Tensor& weight,
                                     IntArrayRef kernel_size, const std::optional<Tensor>& bias,
                                     IntArrayRef stride, IntArrayRef padding);
/// Dilated conv2d / conv3d.
BRASA_API Tensor slow_conv_dilated2d(const Tensor& self, const Tensor& weight,
                                     IntArrayRef kernel_size,
                                     const std::optional<Tensor>& bias = {}, IntArrayRef stride = 1,
                                     IntArrayRef padding = 0, IntArrayRef dilation = 1);
BRASA_API Tensor slow_conv_dilated3d(const Tensor& self, const Tensor& weight,
                                     IntArrayRef kernel_size,
                                     const std::optional<Tensor>& bias = {}, IntArrayRef stride = 1,
                                     IntArrayRef padding = 0, IntArrayRef dilation = 1);
/// Transposed conv2d / conv3d; weight [C_in, C_out, *k].
BRASA_API Tensor slow_conv_transpose2d(const Tensor& self, const Tensor& weight,
                                       IntArrayRef kernel_size,
                                       const std::optional<Tensor>& bias = {},
                                       IntArrayRef stride = 1, IntArrayRef padding = 0,
                                       IntArrayRef output_padding = 0, IntArrayRef dilation = 1);
BRASA_API Tensor slow_conv_transpose3d(const Tensor& self, const Tensor& weight,
                                       IntArrayRef kernel_size,
                                       const std::optional<Tensor>& bias = {},
                                       IntArrayRef stride = 1, IntArrayRef padding = 0,
                                       IntArrayRef output_padding = 0, IntArrayRef dilation = 1);
/// Depthwise conv3d: weight [C_out, 1, *k] with C_out a multiple of C_in (groups = C_in).
BRASA_API Tensor conv_depthwise3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                                  const std::optional<Tensor>& bias, IntArrayRef stride,
                                  IntArrayRef padding, IntArrayRef dilation);
/// Time-batch-channel convolution: self [T, B, C_in], weight [k, C_in, C_out], bias [C_out],
/// `pad` zeros on both ends of T -> [T + 2 pad - k + 1, B, C_out].
BRASA_API Tensor conv_tbc(const Tensor& self, const Tensor& weight, const Tensor& bias,
                          int64_t pad = 0);

}  // namespace brasa
