// Loops of pads, upsampling and im2col / col2im (resample_kernels.h), in Float or Double. Built
// for DEFAULT only: gathers and scatters, no faster in the AVX2 and AVX-512 builds, and as fast at
// the DEFAULT build's -O2 as at -O3 (docs/benchmarks.md).
#define BRASA_KERNEL_DEFAULT_ONLY
#include "backends/cpu/kernels/resample_kernels.h"

#include "backends/cpu/kernels/plane_loop.h"

namespace brasa::cpu {
namespace {

using ops::BilinearArgs;
using ops::FoldArgs;
using ops::FoldBlocks;
using ops::IndexMapArgs;

/// Runs f(plane, in offset, out offset) over every output element.
template <typename F>
void for_mapped(const IndexMapArgs& a, const F& f) {
  const int64_t* m0 = a.map[0];
  const int64_t* m1 = a.map[1];
  const int64_t* m2 = a.map[2];
  for_planes(a.planes, a.out[0] * a.out[1] * a.out[2], [&](int64_t p) {
    int64_t o = 0;
    for (int64_t d = 0; d < a.out[0]; ++d)
      for (int64_t h = 0; h < a.out[1]; ++h)
        for (int64_t w = 0; w < a.out[2]; ++w, ++o)
          f(p, (m0[d] * a.in[1] + m1[h]) * a.in[2] + m2[w], o);
  });
}

template <typename T>
void gather_loop(const IndexMapArgs& a) {
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  const int64_t in_plane = a.in[0] * a.in[1] * a.in[2], out_plane = a.out[0] * a.out[1] * a.out[2];
  for_mapped(a,
             [&](int64_t p, int64_t i, int64_t o) { y[p * out_plane + o] = in[p * in_plane + i]; });
}

template <typename T>
void scatter_add_loop(const IndexMapArgs& a) {
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  const int64_t in_plane = a.in[0] * a.in[1] * a.in[2], out_plane = a.out[0] * a.out[1] * a.out[2];
  for_mapped(
      a, [&](int64_t p, int64_t i, int64_t o) { gip[p * in_plane + i] += gop[p * out_plane + o]; });
}

template <typename T>
void bilinear_loop(const BilinearArgs& a) {
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  const int64_t in_plane = a.in_h * a.in_w, out_plane = a.out_h * a.out_w;
  for_planes(a.planes, 4 * out_plane, [&](int64_t p) {
    const T* x = in + p * in_plane;
    T* yp = y + p * out_plane;
    int64_t o = 0;
    for (int64_t h = 0; h < a.out_h; ++h) {
      const T* r0 = x + a.h0[h] * a.in_w;
      const T* r1 = x + a.h1[h] * a.in_w;
      for (int64_t w = 0; w < a.out_w; ++w, ++o) {
        T acc = 0;  // the four taps summed in this order, from 0
        acc += static_cast<T>(a.hw0[h] * a.ww0[w]) * r0[a.w0[w]];
        acc += static_cast<T>(a.hw0[h] * a.ww1[w]) * r0[a.w1[w]];
        acc += static_cast<T>(a.hw1[h] * a.ww0[w]) * r1[a.w0[w]];
        acc += static_cast<T>(a.hw1[h] * a.ww1[w]) * r1[a.w1[w]];
        yp[o] = acc;
      }
    }
  });
}

template <typename T>
void bilinear_backward_loop(const BilinearArgs& a) {
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  const int64_t in_plane = a.in_h * a.in_w, out_plane = a.out_h * a.out_w;
  for_planes(a.planes, 4 * out_plane, [&](int64_t p) {
    const T* g = gop + p * out_plane;
    T* x = gip + p * in_plane;
    int64_t o = 0;
    for (int64_t h = 0; h < a.out_h; ++h) {
      T* r0 = x + a.h0[h] * a.in_w;
      T* r1 = x + a.h1[h] * a.in_w;
      for (int64_t w = 0; w < a.out_w; ++w, ++o) {
        r0[a.w0[w]] += static_cast<T>(a.hw0[h] * a.ww0[w]) * g[o];
        r0[a.w1[w]] += static_cast<T>(a.hw0[h] * a.ww1[w]) * g[o];
        r1[a.w0[w]] += static_cast<T>(a.hw1[h] * a.ww0[w]) * g[o];
        r1[a.w1[w]] += static_cast<T>(a.hw1[h] * a.ww1[w]) * g[o];
      }
    }
  });
}

/// Calls f(offset in the plane, offset in the plane's column block) for every in-bounds tap.
template <typename F>
void for_taps(const FoldBlocks& b, const F& f) {
  const int64_t L = b.count();
  for (int64_t ki = 0; ki < b.k[0]; ++ki)
    for (int64_t kj = 0; kj < b.k[1]; ++kj) {
      const int64_t row = (ki * b.k[1] + kj) * L;
      for (int64_t oh = 0; oh < b.out[0]; ++oh) {
        const int64_t ih = oh * b.s[0] - b.p[0] + ki * b.d[0];
        if (ih < 0 || ih >= b.in[0]) continue;
        for (int64_t ow = 0; ow < b.out[1]; ++ow) {
          const int64_t iw = ow * b.s[1] - b.p[1] + kj * b.d[1];
          if (iw >= 0 && iw < b.in[1]) f(ih * b.in[1] + iw, row + oh * b.out[1] + ow);
        }
      }
    }
}

template <typename T>
void im2col_loop(const FoldArgs& a) {
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  const int64_t in_plane = a.b.in[0] * a.b.in[1], col_plane = a.b.kernel_numel() * a.b.count();
  for_planes(a.planes, col_plane, [&](int64_t p) {
    for_taps(a.b, [&](int64_t i, int64_t c) { y[p * col_plane + c] = in[p * in_plane + i]; });
  });
}

template <typename T>
void col2im_loop(const FoldArgs& a) {
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  const int64_t out_plane = a.b.in[0] * a.b.in[1], col_plane = a.b.kernel_numel() * a.b.count();
  for_planes(a.planes, col_plane, [&](int64_t p) {
    for_taps(a.b, [&](int64_t i, int64_t c) { y[p * out_plane + i] += in[p * col_plane + c]; });
  });
}

// One kernel per loop: the loop in the compute dtype the arguments name.
#define BRASA_RESAMPLE_KERNEL(name, loop, Args) \
  void name(const Args& a) {                    \
    if (a.dtype == kDouble)                     \
      loop<double>(a);                          \
    else                                        \
      loop<float>(a);                           \
  }
BRASA_RESAMPLE_KERNEL(gather_kernel, gather_loop, IndexMapArgs)
BRASA_RESAMPLE_KERNEL(scatter_add_kernel, scatter_add_loop, IndexMapArgs)
BRASA_RESAMPLE_KERNEL(bilinear_kernel, bilinear_loop, BilinearArgs)
BRASA_RESAMPLE_KERNEL(bilinear_backward_kernel, bilinear_backward_loop, BilinearArgs)
BRASA_RESAMPLE_KERNEL(im2col_kernel, im2col_loop, FoldArgs)
BRASA_RESAMPLE_KERNEL(col2im_kernel, col2im_loop, FoldArgs)
#undef BRASA_RESAMPLE_KERNEL

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(index_map_gather_stub, ::brasa::cpu::gather_kernel);
BRASA_REGISTER_STUB(index_map_scatter_add_stub, ::brasa::cpu::scatter_add_kernel);
BRASA_REGISTER_STUB(bilinear_stub, ::brasa::cpu::bilinear_kernel);
BRASA_REGISTER_STUB(bilinear_backward_stub, ::brasa::cpu::bilinear_backward_kernel);
BRASA_REGISTER_STUB(im2col_stub, ::brasa::cpu::im2col_kernel);
BRASA_REGISTER_STUB(col2im_stub, ::brasa::cpu::col2im_kernel);
}  // namespace brasa::ops
