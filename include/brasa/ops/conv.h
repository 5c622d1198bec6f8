#pragma once
// Convolutions (libtorch spellings). input [N, C_in, *spatial] (conv wrappers also take an
// unbatched [C_in, *spatial]), weight [C_out, C_in / groups, *kernel] (transposed:
// [C_in, C_out / groups, *kernel]), optional bias [C_out]. stride/padding/dilation/output_padding
// take one value per spatial dim or a single value for all. Floating and integral dtypes
// (transposed: floating and Long, as in PyTorch); TypeError for Bool, other dtypes or mismatched
// dtypes. Shapes or parameters that don't fit throw ValueError naming the op and the shapes. Float
// runs on oneDNN (falling back to the direct loop for geometries it rejects), the others on a
// direct loop that accumulates in float (Half/BFloat16), double or int64.

#include <array>
#include <string_view>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// The primitive behind every convolution: input [N, C, *spatial] with 1 to 3 spatial dims.
BRASA_API Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias,
                             IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                             bool transposed, IntArrayRef output_padding, int64_t groups);
/// Gradients of convolution with respect to input, weight and bias (each computed only where
/// output_mask says so, otherwise undefined). grad_output has the shape convolution returns.
BRASA_API std::tuple<Tensor, Tensor, Tensor> convolution_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight, IntArrayRef stride,
    IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
    int64_t groups, std::array<bool, 3> output_mask);

/// [N, C_in, L] -> [N, C_out, L_out].
BRASA_API Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);
/// padding "valid" (none) or "same" (output size = input size; stride must be 1).
BRASA_API Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, std::string_view padding, IntArrayRef dilation = 1,
                        int64_t groups = 1);
/// [N, C_in, H, W] -> [N, C_out, H_out, W_out].
BRASA_API Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);
BRASA_API Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, std::string_view padding, IntArrayRef dilation = 1,
                        int64_t groups = 1);
/// [N, C_in, D, H, W] -> [N, C_out, D_out, H_out, W_out].
BRASA_API Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1,
                        int64_t groups = 1);
BRASA_API Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, std::string_view padding, IntArrayRef dilation = 1,
                        int64_t groups = 1);
/// Transposed convolutions: out = (in - 1) * stride - 2 * padding + dilation * (k - 1) +
/// output_padding + 1; output_padding must be smaller than stride or dilation.
BRASA_API Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = {}, IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);
BRASA_API Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = {}, IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);
BRASA_API Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                                  const Tensor& bias = {}, IntArrayRef stride = 1,
                                  IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                                  int64_t groups = 1, IntArrayRef dilation = 1);

}  // namespace brasa
