// The convolutions oneDNN does not run (Double, BFloat16 without AVX-512 BF16, the integer dtypes,
// geometries it rejects): their geometry here, their loops in
// backends/cpu/kernels/conv_direct_kernels.cpp.
#include "backends/cpu/kernels/conv_direct_kernels.h"
#include "ops/conv/conv_params.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(conv_direct_forward_stub, ConvDirectKernel);
BRASA_DEFINE_STUB(conv_direct_backward_data_stub, ConvDirectKernel);
BRASA_DEFINE_STUB(conv_direct_backward_weight_stub, ConvDirectKernel);
}  // namespace brasa::ops

namespace brasa::ops::conv {
namespace {

// x: [N, C, *in], w: [OC, C/g, *k], y: [N, OC, *out] (sizes only).
ConvGeometry make_geo(IntArrayRef x, IntArrayRef w, IntArrayRef y, const ConvParams& p) {
  ConvGeometry g{};
  g.n = x[0];
  g.c = x[1];
  g.oc = w[0];
  g.g = p.groups;
  g.cg = g.c / g.g;
  g.ocg = g.oc / g.g;
  const int64_t off = 3 - p.nsp;
  for (int64_t i = 0; i < 3; ++i) {
    const bool real = i >= off;
    g.in[i] = real ? x[i - off + 2] : 1;
    g.out[i] = real ? y[i - off + 2] : 1;
    g.k[i] = real ? w[i - off + 2] : 1;
    g.s[i] = real ? p.stride[i - off] : 1;
    g.p[i] = real ? p.padding[i - off] : 0;
    g.d[i] = real ? p.dilation[i - off] : 1;
  }
  return g;
}

// Float always goes to oneDNN; BFloat16 only where the CPU has AVX-512 BF16 (oneDNN's other bf16
// code is reference or emulated, slower than the direct loop's float accumulation).
bool on_onednn(ScalarType dt) {
  static const bool native_bf16 = __builtin_cpu_supports("avx512bf16");
  return dt == kFloat || (dt == kBFloat16 && native_bf16);
}

}  // namespace

void conv_forward(const Tensor& y, const Tensor& x, const Tensor& w, const Tensor& bias,
                  const ConvParams& p) {
  if (y.numel() == 0) return;
  if (on_onednn(x.dtype()) && onednn_conv_forward(y, x, w, bias, p)) return;
  Tensor xc = x.contiguous(), wc = w.contiguous(), bc = bias.defined() ? bias.contiguous() : bias;
  conv_direct_forward_stub(ConvDirectArgs{x.dtype(), y.data_ptr(), xc.data_ptr(), wc.data_ptr(),
                                          bc.defined() ? bc.data_ptr() : nullptr,
                                          make_geo(x.sizes(), w.sizes(), y.sizes(), p)});
}

void conv_backward_data(const Tensor& gx, const Tensor& gy, const Tensor& w, const ConvParams& p) {
  if (gx.numel() == 0) return;
  if (gy.numel() == 0) {
    gx.zero_();
    return;
  }
  if (on_onednn(gx.dtype()) && onednn_conv_backward_data(gx, gy, w, p)) return;
  Tensor gyc = gy.contiguous(), wc = w.contiguous();
  conv_direct_backward_data_stub(ConvDirectArgs{gx.dtype(), gx.data_ptr(), gyc.data_ptr(),
                                                wc.data_ptr(), nullptr,
                                                make_geo(gx.sizes(), w.sizes(), gy.sizes(), p)});
}

void conv_backward_weight(const Tensor& gw, const Tensor& gy, const Tensor& x,
                          const ConvParams& p) {
  if (gw.numel() == 0) return;
  if (gy.numel() == 0) {
    gw.zero_();
    return;
  }
  if (on_onednn(gw.dtype()) && onednn_conv_backward_weight(gw, gy, x, p)) return;
  Tensor gyc = gy.contiguous(), xc = x.contiguous();
  conv_direct_backward_weight_stub(ConvDirectArgs{gw.dtype(), gw.data_ptr(), gyc.data_ptr(),
                                                  xc.data_ptr(), nullptr,
                                                  make_geo(x.sizes(), gw.sizes(), gy.sizes(), p)});
}

}  // namespace brasa::ops::conv
