// Output sizes and parameter checks shared by max and average pooling; the pooling kernels' stubs.
#include "ops/pool/pool_common.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(max_pool_stub, PoolKernel);
BRASA_DEFINE_STUB(avg_pool_stub, PoolKernel);
BRASA_DEFINE_STUB(avg_pool_backward_stub, PoolKernel);
BRASA_DEFINE_STUB(adaptive_avg_pool_stub, PoolKernel);
BRASA_DEFINE_STUB(adaptive_avg_pool_backward_stub, PoolKernel);
BRASA_DEFINE_STUB(adaptive_max_pool_stub, PoolKernel);
BRASA_DEFINE_STUB(max_pool_backward_stub, IndexScatterKernel);
}  // namespace brasa::ops

namespace brasa::ops::pool {

void pooling_geometry(Geometry& g, const Tensor& input, int64_t spatial, IntArrayRef kernel,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                      const char* op) {
  const DimVector k = expand_param(kernel, spatial, {}, op, "kernel_size");
  const DimVector s = expand_param(stride, spatial, k, op, "stride");
  const DimVector p = expand_param(padding, spatial, IntArrayRef{0}, op, "padding");
  const DimVector d = expand_param(dilation, spatial, IntArrayRef{1}, op, "dilation");
  set_in(g, input, spatial);
  bool too_small = false;
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t j = 3 - spatial + i;
    g.kernel[j] = k[i], g.stride[j] = s[i], g.pad[j] = p[i], g.dilation[j] = d[i];
    BRASA_CHECK(k[i] > 0, op, ": kernel size should be greater than zero, but got ", shape_str(k));
    BRASA_CHECK(s[i] > 0, op, ": stride should be greater than zero, but got ", shape_str(s));
    BRASA_CHECK(d[i] > 0, op, ": dilation should be greater than zero, but got ", shape_str(d));
    BRASA_CHECK(p[i] >= 0 && p[i] <= k[i] / 2, op,
                ": pad should be at most half of kernel size, but got pad=", p[i],
                " and kernel_size=", k[i]);
    const int64_t span = g.in[j] + 2 * p[i] - d[i] * (k[i] - 1) - 1;
    int64_t o = (span + (ceil_mode ? s[i] - 1 : 0)) / s[i] + 1;
    if (ceil_mode && o > 0 && (o - 1) * s[i] >= g.in[j] + p[i]) --o;
    g.out[j] = span < 0 ? 0 : o;
    too_small = too_small || g.out[j] < 1;
  }
  BRASA_CHECK(!too_small, op, ": given input of shape ", shape_str(input.sizes()),
              ", the calculated output size ", shape_str(out_shape(input, g, spatial)),
              " is too small");
}

}  // namespace brasa::ops::pool
