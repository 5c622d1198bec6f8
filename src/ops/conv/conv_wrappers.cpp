// conv1d/2d/3d and conv_transpose1d/2d/3d: unbatched inputs, "same"/"valid" padding, then the
// convolution op.
#include <string>

#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/ops/conv.h"
#include "ops/conv/conv_params.h"

namespace brasa {
namespace {

Tensor conv_nd(const char* op, int64_t nsp, const Tensor& input, const Tensor& weight,
               const Tensor& bias, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
               bool transposed, IntArrayRef output_padding, int64_t groups) {
  BRASA_CHECK(input.defined() && weight.defined(), op, ": got an undefined input or weight");
  BRASA_CHECK(input.dim() == nsp + 1 || input.dim() == nsp + 2, op, ": expected ", nsp + 1,
              "D (unbatched) or ", nsp + 2, "D (batched) input to ", op,
              ", but got input of size: ", ops::conv::shape_str(input.sizes()));
  if (BRASA_UNLIKELY(autocast::is_active())) {
    // Note [Autocast]: cast before the dtype checks below; transposed convolutions are float32
    // ops in PyTorch 1.13, the others lower-precision ones (as in autocast_policy.cpp).
    const ScalarType dt = transposed ? kFloat : autocast::get_autocast_cpu_dtype();
    autocast::AutocastExclude exclude;
    return conv_nd(op, nsp, autocast::cached_cast(dt, input), autocast::cached_cast(dt, weight),
                   autocast::cached_cast(dt, bias), stride, padding, dilation, transposed,
                   output_padding, groups);
  }
  const bool unbatched = input.dim() == nsp + 1;
  const Tensor x = unbatched ? input.unsqueeze(0) : input;
  ops::conv::check_conv(op, x, weight, bias, stride, padding, dilation, transposed, output_padding,
                        groups);
  Tensor y =
      convolution(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
  return unbatched ? y.squeeze(0) : y;
}

Tensor conv_nd_padding(const char* op, int64_t nsp, const Tensor& input, const Tensor& weight,
                       const Tensor& bias, IntArrayRef stride, std::string_view padding,
                       IntArrayRef dilation, int64_t groups) {
  if (padding == "valid")
    return conv_nd(op, nsp, input, weight, bias, stride, 0, dilation, false, 0, groups);
  BRASA_CHECK(padding == "same", op, ": invalid padding string '", std::string(padding),
              "', expected 'same' or 'valid'");
  for (int64_t s : stride)
    BRASA_CHECK(s == 1, op, ": padding='same' is not supported for strided convolutions");
  BRASA_CHECK(weight.defined() && weight.dim() == nsp + 2, op, ": expected a ", nsp + 2,
              "-D weight, got ", weight.defined() ? ops::conv::shape_str(weight.sizes()) : "none");
  BRASA_CHECK(dilation.size() == 1 || static_cast<int64_t>(dilation.size()) == nsp, op,
              ": expected dilation to have 1 or ", nsp, " values, got ", dilation);
  // Total padding d * (k - 1) per dim; an odd total puts the extra element on the right, which
  // equals padding ceil(total / 2) on both sides and dropping the first output element.
  DimVector pad, drop;
  for (int64_t i = 0; i < nsp; ++i) {
    const int64_t d = dilation[dilation.size() == 1 ? 0 : i];
    const int64_t total = d * (weight.size(i + 2) - 1);
    pad.push_back((total + 1) / 2);
    drop.push_back(total % 2);
  }
  Tensor y = conv_nd(op, nsp, input, weight, bias, stride, pad, dilation, false, 0, groups);
  const int64_t off = y.dim() - nsp;
  for (int64_t i = 0; i < nsp; ++i)
    if (drop[i]) y = y.narrow(off + i, 1, y.size(off + i) - 1);
  return y;
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv1d", 1, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv2d", 2, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd("conv3d", 3, input, weight, bias, stride, padding, dilation, false, 0, groups);
}
Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_padding("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_padding("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd_padding("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose1d", 1, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose2d", 2, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding,
                        int64_t groups, IntArrayRef dilation) {
  return conv_nd("conv_transpose3d", 3, input, weight, bias, stride, padding, dilation, true,
                 output_padding, groups);
}

}  // namespace brasa
