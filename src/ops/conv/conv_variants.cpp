// libtorch's named convolution kernels as calls of brasa's convolutions (conv_wrappers.cpp).

#include "brasa/ops/conv_variants.h"

#include "brasa/core/error.h"
#include "brasa/ops/conv.h"

namespace brasa {
namespace {

Tensor or_undefined(const std::optional<Tensor>& t) { return t.value_or(Tensor()); }

void check_kernel(const char* op, const Tensor& weight, IntArrayRef kernel_size, int64_t dims) {
  BRASA_CHECK(weight.defined() && weight.dim() == dims + 2, op, ": expected a weight of ", dims + 2,
              " dims, got ", weight.defined() ? weight.sizes() : IntArrayRef{});
  bool ok =
      static_cast<int64_t>(kernel_size.size()) == dims || (kernel_size.size() == 1 && dims > 1);
  for (int64_t d = 0; ok && d < dims; ++d)
    ok = weight.size(2 + d) == kernel_size[kernel_size.size() == 1 ? 0 : static_cast<size_t>(d)];
  BRASA_CHECK(ok, op, ": kernel_size ", kernel_size, " does not match weight of shape ",
              weight.sizes());
}

}  // namespace

Tensor thnn_conv2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                   const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding) {
  check_kernel("thnn_conv2d", weight, kernel_size, 2);
  return conv2d(self, weight, or_undefined(bias), stride, padding);
}

Tensor slow_conv3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                   const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding) {
  check_kernel("slow_conv3d", weight, kernel_size, 3);
  return conv3d(self, weight, or_undefined(bias), stride, padding);
}

Tensor slow_conv3d_forward(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                           const std::optional<Tensor>& bias, IntArrayRef stride,
                           IntArrayRef padding) {
  return slow_conv3d(self, weight, kernel_size, bias, stride, padding);
}

Tensor slow_conv_dilated2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                           const std::optional<Tensor>& bias, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation) {
  check_kernel("slow_conv_dilated2d", weight, kernel_size, 2);
  return conv2d(self, weight, or_undefined(bias), stride, padding, dilation);
}

Tensor slow_conv_dilated3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                           const std::optional<Tensor>& bias, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation) {
  check_kernel("slow_conv_dilated3d", weight, kernel_size, 3);
  return conv3d(self, weight, or_undefined(bias), stride, padding, dilation);
}

Tensor slow_conv_transpose2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                             const std::optional<Tensor>& bias, IntArrayRef stride,
                             IntArrayRef padding, IntArrayRef output_padding,
                             IntArrayRef dilation) {
  check_kernel("slow_conv_transpose2d", weight, kernel_size, 2);
  return conv_transpose2d(self, weight, or_undefined(bias), stride, padding, output_padding, 1,
                          dilation);
}

Tensor slow_conv_transpose3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                             const std::optional<Tensor>& bias, IntArrayRef stride,
                             IntArrayRef padding, IntArrayRef output_padding,
                             IntArrayRef dilation) {
  check_kernel("slow_conv_transpose3d", weight, kernel_size, 3);
  return conv_transpose3d(self, weight, or_undefined(bias), stride, padding, output_padding, 1,
                          dilation);
}

Tensor conv_depthwise3d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                        const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef dilation) {
  check_kernel("conv_depthwise3d", weight, kernel_size, 3);
  BRASA_CHECK(self.dim() == 5, "conv_depthwise3d: expected a 5-d input [N, C, D, H, W], got ",
              self.sizes());
  return conv3d(self, weight, or_undefined(bias), stride, padding, dilation, self.size(1));
}

Tensor conv_tbc(const Tensor& self, const Tensor& weight, const Tensor& bias, int64_t pad) {
  BRASA_CHECK(self.dim() == 3, "conv_tbc: expected a 3-d input [T, B, C_in], got ", self.sizes());
  BRASA_CHECK(weight.dim() == 3 && weight.size(1) == self.size(2), "conv_tbc: expected a weight ",
              "[k, C_in = ", self.size(2), ", C_out], got ", weight.sizes());
  BRASA_CHECK(bias.dim() == 1 && bias.size(0) == weight.size(2), "conv_tbc: expected a bias [",
              weight.size(2), "], got ", bias.sizes());
  // [T, B, C] is conv1d's [B, C, T] permuted; weight [k, C_in, C_out] is [C_out, C_in, k].
  Tensor out = conv1d(self.permute({1, 2, 0}), weight.permute({2, 1, 0}), bias, 1, pad);
  return out.permute({2, 0, 1});
}

}  // namespace brasa
