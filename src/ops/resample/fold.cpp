// im2col (F::unfold) and col2im (F::fold): sliding 2-D blocks of [N, C, H, W] as columns
// [N, C * kh * kw, L], and the summing inverse. Each is the other's gradient. Loops:
// backends/cpu/kernels/resample_kernels.cpp.
#include <utility>

#include "backends/cpu/kernels/resample_kernels.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/resample_ops.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(im2col_stub, FoldKernel);
BRASA_DEFINE_STUB(col2im_stub, FoldKernel);

namespace {

using Blocks = FoldBlocks;

Blocks blocks_of(int64_t h, int64_t w, IntArrayRef kernel, IntArrayRef dilation,
                 IntArrayRef padding, IntArrayRef stride, const char* op) {
  const DimVector k = pool::expand_param(kernel, 2, {}, op, "kernel_size");
  const DimVector d = pool::expand_param(dilation, 2, {}, op, "dilation");
  const DimVector p = pool::expand_param(padding, 2, {}, op, "padding");
  const DimVector s = pool::expand_param(stride, 2, {}, op, "stride");
  Blocks b{};
  b.in[0] = h, b.in[1] = w;
  for (int i = 0; i < 2; ++i) {
    b.k[i] = k[i], b.d[i] = d[i], b.p[i] = p[i], b.s[i] = s[i];
    BRASA_CHECK(k[i] > 0 && d[i] > 0 && s[i] > 0 && p[i] >= 0, op,
                ": expected positive kernel_size, dilation and stride and non-negative padding, "
                "got kernel_size=",
                pool::shape_str(k), ", dilation=", pool::shape_str(d),
                ", padding=", pool::shape_str(p), ", stride=", pool::shape_str(s));
    b.out[i] = (b.in[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) / s[i] + 1;
    if (b.in[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1 < 0) b.out[i] = 0;
  }
  // Ours, then libtorch's words (its tests match them).
  BRASA_CHECK(b.out[0] >= 1 && b.out[1] >= 1, op,
              ": the array of sliding blocks is too small: Given input with spatial size (", h,
              ", ", w, "), kernel_size=(", k[0], ", ", k[1], "), dilation=(", d[0], ", ", d[1],
              "), padding=(", p[0], ", ", p[1], "), calculated shape of the array of sliding ",
              "blocks as (", b.out[0], ", ", b.out[1], "), but its components must be at least ",
              "one.");
  return b;
}

// The shape rule: the checked blocks and the empty result.
std::pair<Blocks, Tensor> im2col_rule(const Tensor& self, IntArrayRef kernel, IntArrayRef dilation,
                                      IntArrayRef padding, IntArrayRef stride) {
  const char* op = "im2col";
  pool::check_pool_input(self, 2, op);
  const Blocks b = blocks_of(self.size(-2), self.size(-1), kernel, dilation, padding, stride, op);
  DimVector shape(self.sizes().slice(0, static_cast<size_t>(self.dim() - 2)));
  shape.back() *= b.kernel_numel();
  shape.push_back(b.count());
  return {b, pool::result_like(shape, self)};
}

Tensor im2col_meta(const Tensor& self, IntArrayRef kernel, IntArrayRef dilation,
                   IntArrayRef padding, IntArrayRef stride) {
  return im2col_rule(self, kernel, dilation, padding, stride).second;
}

Tensor im2col_kernel(const Tensor& self, IntArrayRef kernel, IntArrayRef dilation,
                     IntArrayRef padding, IntArrayRef stride) {
  const auto [b, result] = im2col_rule(self, kernel, dilation, padding, stride);
  return pool::run_compute(self, result, true, [&](ScalarType dt, const void* in, void* y) {
    im2col_stub(FoldArgs{dt, in, y, pool::planes_of(self, 2), b});
  });
}

// The shape rule: the checked blocks and the empty result.
std::pair<Blocks, Tensor> col2im_rule(const Tensor& self, IntArrayRef output_size,
                                      IntArrayRef kernel, IntArrayRef dilation, IntArrayRef padding,
                                      IntArrayRef stride) {
  const char* op = "col2im";
  pool::check_floating(self, op);
  BRASA_CHECK((self.dim() == 2 || self.dim() == 3) && self.size(-1) > 0 && self.size(-2) > 0, op,
              ": expected a non-empty 2-D or 3-D (batch mode) input, got shape ",
              pool::shape_str(self.sizes()));
  const DimVector out_hw = pool::expand_param(output_size, 2, {}, op, "output_size");
  const Blocks b = blocks_of(out_hw[0], out_hw[1], kernel, dilation, padding, stride, op);
  const int64_t rows = self.size(-2), L = self.size(-1);
  BRASA_CHECK(rows % b.kernel_numel() == 0, op, ": expected size of input's dimension ",
              self.dim() - 2, " (", rows, ") to be divisible by the product of kernel_size (",
              b.kernel_numel(), "), input shape ", pool::shape_str(self.sizes()));
  BRASA_CHECK(L == b.count(), op, ": given output_size=", pool::shape_str(out_hw),
              " and kernel_size=", pool::shape_str(IntArrayRef(b.k, 2)), ", expected ", b.count(),
              " blocks in input's last dimension, got ", L, " (input shape ",
              pool::shape_str(self.sizes()), ")");
  DimVector shape(self.sizes().slice(0, static_cast<size_t>(self.dim() - 2)));
  shape.push_back(rows / b.kernel_numel());
  shape.push_back(out_hw[0]);
  shape.push_back(out_hw[1]);
  return {b, pool::result_like(shape, self)};
}

Tensor col2im_meta(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel,
                   IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  return col2im_rule(self, output_size, kernel, dilation, padding, stride).second;
}

Tensor col2im_kernel(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel,
                     IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  const auto [b, result] = col2im_rule(self, output_size, kernel, dilation, padding, stride);
  return pool::run_compute(self, result, true, [&](ScalarType dt, const void* in, void* y) {
    col2im_stub(FoldArgs{dt, in, y, pool::planes_of(result, 2), b});
  });
}

}  // namespace

BRASA_DEFINE_OP(im2col_op)
BRASA_REGISTER_KERNEL(im2col_op, im2col_kernel, CPU)
BRASA_REGISTER_KERNEL(im2col_op, im2col_meta, Meta)
BRASA_DEFINE_OP(col2im_op)
BRASA_REGISTER_KERNEL(col2im_op, col2im_kernel, CPU)
BRASA_REGISTER_KERNEL(col2im_op, col2im_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  return ops::im2col_op().call(self, kernel_size, dilation, padding, stride);
}
Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
              IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  return ops::col2im_op().call(self, output_size, kernel_size, dilation, padding, stride);
}

}  // namespace brasa
