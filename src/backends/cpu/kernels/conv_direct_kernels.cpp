// Loops of the direct convolution (conv_direct_kernels.h), for every numeric dtype; floating ones
// accumulate in their op-math type, integer ones in int64. Built for DEFAULT only, at -O3: the
// AVX2 and AVX-512 builds measured no faster than the -O3 DEFAULT build, and the usual -O2 one was
// 1.1-1.5x slower (docs/benchmarks.md; Note [Capability builds per file] in
// cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#define BRASA_KERNEL_DEFAULT_O3
#include "backends/cpu/kernels/conv_direct_kernels.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using ops::ConvDirectArgs;
using ops::ConvGeometry;

template <typename T>
using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, opmath_t<T>>;

// Calls f(x_offset_within_channel, w_offset_within_filter) for each in-bounds tap of output pos o.
template <typename F>
inline void taps(const ConvGeometry& g, const int64_t o[3], const F& f) {
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
void forward_loop(T* y, const T* x, const T* w, const T* bias, const ConvGeometry& g) {
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

template <typename T>
void backward_data_loop(T* gx, const T* gy, const T* w, const ConvGeometry& g) {
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

template <typename T>
void backward_weight_loop(T* gw, const T* gy, const T* x, const ConvGeometry& g) {
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

void forward_kernel(const ConvDirectArgs& a) {
  BRASA_DISPATCH_NUMERIC_TYPES(a.dtype, "convolution", [&] {
    forward_loop<scalar_t>(static_cast<scalar_t*>(a.dst), static_cast<const scalar_t*>(a.a),
                           static_cast<const scalar_t*>(a.b), static_cast<const scalar_t*>(a.bias),
                           a.g);
  });
}

void backward_data_kernel(const ConvDirectArgs& a) {
  BRASA_DISPATCH_NUMERIC_TYPES(a.dtype, "convolution_backward", [&] {
    backward_data_loop<scalar_t>(static_cast<scalar_t*>(a.dst), static_cast<const scalar_t*>(a.a),
                                 static_cast<const scalar_t*>(a.b), a.g);
  });
}

void backward_weight_kernel(const ConvDirectArgs& a) {
  BRASA_DISPATCH_NUMERIC_TYPES(a.dtype, "convolution_backward", [&] {
    backward_weight_loop<scalar_t>(static_cast<scalar_t*>(a.dst), static_cast<const scalar_t*>(a.a),
                                   static_cast<const scalar_t*>(a.b), a.g);
  });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(conv_direct_forward_stub, ::brasa::cpu::forward_kernel);
BRASA_REGISTER_STUB(conv_direct_backward_data_stub, ::brasa::cpu::backward_data_kernel);
BRASA_REGISTER_STUB(conv_direct_backward_weight_stub, ::brasa::cpu::backward_weight_kernel);
}  // namespace brasa::ops
