#pragma once
// Checked parameters of one convolution, expressed as a regular (non-transposed) convolution from
// `in` to `out` sizes: a transposed convolution is the input gradient of the regular one.

#include <cstdint>
#include <string>

#include "brasa/core/tensor.h"

namespace brasa::ops::conv {

struct ConvParams {
  int64_t nsp = 0;  // spatial dims, 1..3
  int64_t stride[3] = {1, 1, 1}, padding[3] = {0, 0, 0}, dilation[3] = {1, 1, 1};
  int64_t output_padding[3] = {0, 0, 0};
  int64_t groups = 1;
  bool transposed = false;
};

std::string shape_str(IntArrayRef s);

/// Checks input/weight/bias and the parameters (ValueError/TypeError naming `op`); returns them.
ConvParams check_conv(const char* op, const Tensor& input, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                      bool transposed, IntArrayRef output_padding, int64_t groups);

/// Output shape of the convolution (transposed or not).
DimVector conv_output_shape(const ConvParams& p, IntArrayRef input, IntArrayRef weight);

/// Regular convolution x [N, C, *in] * w [OC, C/g, *k] (+ bias) into y [N, OC, *out].
void conv_forward(const Tensor& y, const Tensor& x, const Tensor& w, const Tensor& bias,
                  const ConvParams& p);
/// Input gradient of the regular convolution: gx [N, C, *in] from gy [N, OC, *out] and w.
void conv_backward_data(const Tensor& gx, const Tensor& gy, const Tensor& w, const ConvParams& p);
/// Weight gradient of the regular convolution: gw [OC, C/g, *k] from gy and x.
void conv_backward_weight(const Tensor& gw, const Tensor& gy, const Tensor& x, const ConvParams& p);

/// oneDNN versions for Float (outputs contiguous); false when the geometry is not supported.
bool onednn_conv_forward(const Tensor& y, const Tensor& x, const Tensor& w, const Tensor& bias,
                         const ConvParams& p);
/// relu(convolution(...)) of a regular Float convolution as one oneDNN primitive with a relu
/// post-op, for compiled graphs (Note [Conv epilogues] in src/compile/matmul_epilogue.cpp); an
/// undefined tensor when oneDNN cannot run it (the caller runs the two ops instead).
BRASA_API Tensor convolution_relu(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                  IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                  IntArrayRef output_padding, int64_t groups);
bool onednn_conv_backward_data(const Tensor& gx, const Tensor& gy, const Tensor& w,
                               const ConvParams& p);
bool onednn_conv_backward_weight(const Tensor& gw, const Tensor& gy, const Tensor& x,
                                 const ConvParams& p);

}  // namespace brasa::ops::conv
