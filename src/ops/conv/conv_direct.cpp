// Direct convolution loops for the dtypes oneDNN is not used for (Double, BFloat16) and for
// geometries it rejects. Every case is lowered to 3 spatial dims (missing dims have size 1), and
// each output element is gathered, so the parallel loops never write the same element twice.
#include <type_traits>
#include <vector>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"
#include "ops/conv/conv_params.h"

namespace brasa::ops::conv {
namespace {

template <typename T>
using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, opmath_t<T>>;

struct Geo {
  int64_t n, c, oc, g, cg, ocg;  // cg/ocg: channels per group
  int64_t in[3], out[3], k[3], s[3], p[3], d[3];
  int64_t in_sp() const { return in[0] * in[1] * in[2]; }
  int64_t out_sp() const { return out[0] * out[1] * out[2]; }
  int64_t k_sp() const { return k[0] * k[1] * k[2]; }
};

// x: [N, C, *in], w: [OC, C/g, *k], y: [N, OC, *out] (sizes only).
Geo make_geo(IntArrayRef x, IntArrayRef w, IntArrayRef y, const ConvParams& p) {
  Geo g{};
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

// Calls f(x_offset_within_channel, w_offset_within_filter) for each in-bounds tap of output pos o.
template <typename F>
inline void taps(const Geo& g, const int64_t o[3], const F& f) {
  for (int64_t a = 0; a < g.k[0]; ++a) {
    const int64_t i0 = o[0] * g.s[0] - g.p[0] + a * g.d[0];
    if (i0 < 0 || i0 >= g.in[0]) continue;
    for (int64_t b = 0; b < g.k[1]; ++b) {
      const int64_t i1 = o[1] * g.s[1] - g.p[1] + b * g.d[1];
      if (i1 < 0 || i1 >= g.in[1]) continue;
      for (int64_t c = 0; c < g.k[2]; ++c) {
        const int64_t i2 = o[2] * g.s[2] - g.p[2] + c * g.d[2];
        if (i2 < 0 || i2 >= g.in[2]) continue;
        f((i0 * g.in[1] + i1) * g.in[2] + i2, (a * g.k[1] + b) * g.k[2] + c);
      }
    }
  }
}

inline void unflatten(int64_t idx, const int64_t sz[3], int64_t o[3]) {
  o[2] = idx % sz[2];
  o[1] = (idx / sz[2]) % sz[1];
  o[0] = idx / (sz[1] * sz[2]);
}

template <typename T>
void forward_loop(T* y, const T* x, const T* w, const T* bias, const Geo& g) {
  using acc_t = Acc<T>;
  const int64_t osp = g.out_sp(), isp = g.in_sp(), ksp = g.k_sp();
  parallel_for(0, g.n * g.oc, 1, [&](int64_t b, int64_t e) {
    for (int64_t no = b; no < e; ++no) {
      const int64_t n = no / g.oc, oc = no % g.oc, grp = oc / g.ocg;
      const T* xb = x + (n * g.c + grp * g.cg) * isp;
      const T* wb = w + oc * g.cg * ksp;
      for (int64_t q = 0; q < osp; ++q) {
        int64_t o[3];
        unflatten(q, g.out, o);
        acc_t acc = bias ? static_cast<acc_t>(bias[oc]) : acc_t(0);
        for (int64_t ic = 0; ic < g.cg; ++ic)
          taps(g, o, [&](int64_t xi, int64_t wi) {
            acc += static_cast<acc_t>(xb[ic * isp + xi]) * static_cast<acc_t>(wb[ic * ksp + wi]);
          });
        y[no * osp + q] = static_cast<T>(acc);
      }
    }
  });
}

// gx[n, c, i] = sum over (oc in group, k, o with o*s - p + k*d == i) gy[n, oc, o] * w[oc, c, k].
template <typename T>
void backward_data_loop(T* gx, const T* gy, const T* w, const Geo& g) {
  using acc_t = Acc<T>;
  const int64_t osp = g.out_sp(), isp = g.in_sp(), ksp = g.k_sp();
  parallel_for(0, g.n * g.c, 1, [&](int64_t b, int64_t e) {
    std::vector<acc_t> acc(isp);
    for (int64_t nc = b; nc < e; ++nc) {
      const int64_t n = nc / g.c, c = nc % g.c, grp = c / g.cg, cl = c % g.cg;
      std::fill(acc.begin(), acc.end(), acc_t(0));
      for (int64_t ocl = 0; ocl < g.ocg; ++ocl) {
        const int64_t oc = grp * g.ocg + ocl;
        const T* gyb = gy + (n * g.oc + oc) * osp;
        const T* wb = w + (oc * g.cg + cl) * ksp;
        for (int64_t q = 0; q < osp; ++q) {
          int64_t o[3];
          unflatten(q, g.out, o);
          const acc_t v = static_cast<acc_t>(gyb[q]);
          taps(g, o, [&](int64_t xi, int64_t wi) { acc[xi] += v * static_cast<acc_t>(wb[wi]); });
        }
      }
      for (int64_t i = 0; i < isp; ++i) gx[nc * isp + i] = static_cast<T>(acc[i]);
    }
  });
}

// gw[oc, c, k] = sum over (n, o) gy[n, oc, o] * x[n, grp * cg + c, o*s - p + k*d].
template <typename T>
void backward_weight_loop(T* gw, const T* gy, const T* x, const Geo& g) {
  using acc_t = Acc<T>;
  const int64_t osp = g.out_sp(), isp = g.in_sp(), ksp = g.k_sp();
  parallel_for(0, g.oc * g.cg, 1, [&](int64_t b, int64_t e) {
    std::vector<acc_t> acc(ksp);
    for (int64_t oci = b; oci < e; ++oci) {
      const int64_t oc = oci / g.cg, cl = oci % g.cg, grp = oc / g.ocg;
      std::fill(acc.begin(), acc.end(), acc_t(0));
      for (int64_t n = 0; n < g.n; ++n) {
        const T* gyb = gy + (n * g.oc + oc) * osp;
        const T* xb = x + (n * g.c + grp * g.cg + cl) * isp;
        for (int64_t q = 0; q < osp; ++q) {
          int64_t o[3];
          unflatten(q, g.out, o);
          const acc_t v = static_cast<acc_t>(gyb[q]);
          taps(g, o, [&](int64_t xi, int64_t wi) { acc[wi] += v * static_cast<acc_t>(xb[xi]); });
        }
      }
      for (int64_t i = 0; i < ksp; ++i) gw[oci * ksp + i] = static_cast<T>(acc[i]);
    }
  });
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
  const Geo g = make_geo(x.sizes(), w.sizes(), y.sizes(), p);
  Tensor xc = x.contiguous(), wc = w.contiguous(), bc = bias.defined() ? bias.contiguous() : bias;
  BRASA_DISPATCH_NUMERIC_TYPES(x.dtype(), "convolution", [&] {
    forward_loop<scalar_t>(y.data_ptr<scalar_t>(), xc.data_ptr<scalar_t>(), wc.data_ptr<scalar_t>(),
                           bc.defined() ? bc.data_ptr<scalar_t>() : nullptr, g);
  });
}

void conv_backward_data(const Tensor& gx, const Tensor& gy, const Tensor& w, const ConvParams& p) {
  if (gx.numel() == 0) return;
  if (gy.numel() == 0) {
    gx.zero_();
    return;
  }
  if (on_onednn(gx.dtype()) && onednn_conv_backward_data(gx, gy, w, p)) return;
  const Geo g = make_geo(gx.sizes(), w.sizes(), gy.sizes(), p);
  Tensor gyc = gy.contiguous(), wc = w.contiguous();
  BRASA_DISPATCH_NUMERIC_TYPES(gx.dtype(), "convolution_backward", [&] {
    backward_data_loop<scalar_t>(gx.data_ptr<scalar_t>(), gyc.data_ptr<scalar_t>(),
                                 wc.data_ptr<scalar_t>(), g);
  });
}

void conv_backward_weight(const Tensor& gw, const Tensor& gy, const Tensor& x,
                          const ConvParams& p) {
  if (gw.numel() == 0) return;
  if (gy.numel() == 0) {
    gw.zero_();
    return;
  }
  if (on_onednn(gw.dtype()) && onednn_conv_backward_weight(gw, gy, x, p)) return;
  const Geo g = make_geo(x.sizes(), gw.sizes(), gy.sizes(), p);
  Tensor gyc = gy.contiguous(), xc = x.contiguous();
  BRASA_DISPATCH_NUMERIC_TYPES(gw.dtype(), "convolution_backward", [&] {
    backward_weight_loop<scalar_t>(gw.data_ptr<scalar_t>(), gyc.data_ptr<scalar_t>(),
                                   xc.data_ptr<scalar_t>(), g);
  });
}

}  // namespace brasa::ops::conv
