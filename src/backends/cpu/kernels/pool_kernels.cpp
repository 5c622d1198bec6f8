// Loops of max, average and adaptive pooling (pool_kernels.h), in Float or Double. Built for
// DEFAULT only, at -O3: the AVX2 and AVX-512 builds measured no faster than the -O3 DEFAULT build,
// and the usual -O2 DEFAULT build was up to 2x slower on average pooling (docs/benchmarks.md; Note
// [Capability builds per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#define BRASA_KERNEL_DEFAULT_O3
#include "backends/cpu/kernels/pool_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "backends/cpu/kernels/plane_loop.h"

namespace brasa::cpu {
namespace {

using ops::PoolArgs;
using ops::PoolGeometry;

template <typename T>
void max_pool_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* out = static_cast<T*>(a.dst);
  // The kernel taps k of one dim whose input position o*s - p + k*d lies in [0, in): [lo, hi).
  auto taps = [&](int dim, int64_t o, int64_t& lo, int64_t& hi) {
    const int64_t start = o * g.stride[dim] - g.pad[dim], d = g.dilation[dim];
    lo = start >= 0 ? 0 : (-start + d - 1) / d;
    const int64_t room = g.in[dim] - start;  // taps with k*d < room are inside
    hi = room <= 0 ? 0 : std::min<int64_t>(g.kernel[dim], (room + d - 1) / d);
    if (hi < lo) hi = lo;
  };
  for_planes(a.planes, g.out_plane() * g.kernel[0] * g.kernel[1] * g.kernel[2], [&](int64_t p) {
    const T* x = in + p * g.in_plane();
    T* y = out + p * g.out_plane();
    int64_t* yi = a.indices + p * g.out_plane();
    int64_t o = 0;
    for (int64_t od = 0; od < g.out[0]; ++od) {
      int64_t d_lo, d_hi;
      taps(0, od, d_lo, d_hi);
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        int64_t h_lo, h_hi;
        taps(1, oh, h_lo, h_hi);
        for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
          int64_t w_lo, w_hi;
          taps(2, ow, w_lo, w_hi);
          const int64_t w0 = ow * g.stride[2] - g.pad[2];
          T best = -std::numeric_limits<T>::infinity();
          int64_t best_i = -1;
          for (int64_t kd = d_lo; kd < d_hi; ++kd) {
            const int64_t id = od * g.stride[0] - g.pad[0] + kd * g.dilation[0];
            for (int64_t kh = h_lo; kh < h_hi; ++kh) {
              const int64_t ih = oh * g.stride[1] - g.pad[1] + kh * g.dilation[1];
              const int64_t row = (id * g.in[1] + ih) * g.in[2];
              for (int64_t kw = w_lo; kw < w_hi; ++kw) {
                const int64_t i = row + w0 + kw * g.dilation[2];
                const T v = x[i];
                if (best_i < 0 || v > best || std::isnan(v)) best = v, best_i = i;
              }
            }
          }
          y[o] = best;
          yi[o] = best_i;
        }
      }
    }
  });
}

/// Calls f(plane, output offset, input window [lo, hi) per dim, divisor) for every output element.
template <typename F>
void for_avg_windows(const PoolArgs& a, const F& f) {
  const PoolGeometry& g = a.g;
  for_planes(a.planes, g.out_plane() * g.kernel[0] * g.kernel[1] * g.kernel[2], [&](int64_t p) {
    int64_t o = 0;
    int64_t pos[3];
    for (pos[0] = 0; pos[0] < g.out[0]; ++pos[0])
      for (pos[1] = 0; pos[1] < g.out[1]; ++pos[1])
        for (pos[2] = 0; pos[2] < g.out[2]; ++pos[2], ++o) {
          int64_t lo[3], hi[3], padded = 1, inside = 1;
          for (int j = 0; j < 3; ++j) {
            lo[j] = pos[j] * g.stride[j] - g.pad[j];
            hi[j] = std::min(lo[j] + g.kernel[j], g.in[j] + g.pad[j]);
            padded *= hi[j] - lo[j];
            lo[j] = std::max<int64_t>(lo[j], 0);
            hi[j] = std::min(hi[j], g.in[j]);
            inside *= std::max<int64_t>(hi[j] - lo[j], 0);
          }
          const int64_t divisor =
              a.divisor != 0 ? a.divisor : (a.count_include_pad ? padded : inside);
          f(p, o, lo, hi, divisor);
        }
  });
}

template <typename T>
void avg_pool_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  for_avg_windows(a, [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t div) {
    const T* xp = in + p * g.in_plane();
    T sum = 0;
    for (int64_t d = lo[0]; d < hi[0]; ++d)
      for (int64_t h = lo[1]; h < hi[1]; ++h)
        for (int64_t w = lo[2]; w < hi[2]; ++w) sum += xp[(d * g.in[1] + h) * g.in[2] + w];
    y[p * g.out_plane() + o] = sum / static_cast<T>(div);
  });
}

template <typename T>
void avg_pool_backward_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  for_avg_windows(a, [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t div) {
    T* xp = gip + p * g.in_plane();
    const T v = gop[p * g.out_plane() + o] / static_cast<T>(div);
    for (int64_t d = lo[0]; d < hi[0]; ++d)
      for (int64_t h = lo[1]; h < hi[1]; ++h)
        for (int64_t w = lo[2]; w < hi[2]; ++w) xp[(d * g.in[1] + h) * g.in[2] + w] += v;
  });
}

/// Calls f(plane, output offset, window [lo, hi) per dim) for every adaptive output cell.
template <typename F>
void for_cells(const PoolArgs& a, const F& f) {
  const PoolGeometry& g = a.g;
  for_planes(a.planes, g.in_plane() + g.out_plane(), [&](int64_t p) {
    int64_t o = 0, pos[3];
    for (pos[0] = 0; pos[0] < g.out[0]; ++pos[0])
      for (pos[1] = 0; pos[1] < g.out[1]; ++pos[1])
        for (pos[2] = 0; pos[2] < g.out[2]; ++pos[2], ++o) {
          int64_t lo[3], hi[3];
          for (int j = 0; j < 3; ++j) {
            lo[j] = pos[j] * g.in[j] / g.out[j];
            hi[j] = ((pos[j] + 1) * g.in[j] + g.out[j] - 1) / g.out[j];
          }
          f(p, o, lo, hi);
        }
  });
}

template <typename F>
void for_window(const PoolGeometry& g, const int64_t* lo, const int64_t* hi, const F& f) {
  for (int64_t d = lo[0]; d < hi[0]; ++d)
    for (int64_t h = lo[1]; h < hi[1]; ++h)
      for (int64_t w = lo[2]; w < hi[2]; ++w) f((d * g.in[1] + h) * g.in[2] + w);
}

template <typename T>
void adaptive_avg_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  for_cells(a, [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
    const T* xp = in + p * g.in_plane();
    T sum = 0;
    for_window(g, lo, hi, [&](int64_t i) { sum += xp[i]; });
    const int64_t n = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    y[p * g.out_plane() + o] = sum / static_cast<T>(n);
  });
}

template <typename T>
void adaptive_avg_backward_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  for_cells(a, [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
    T* xp = gip + p * g.in_plane();
    const int64_t n = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    const T v = gop[p * g.out_plane() + o] / static_cast<T>(n);
    for_window(g, lo, hi, [&](int64_t i) { xp[i] += v; });
  });
}

template <typename T>
void adaptive_max_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  for_cells(a, [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
    const T* xp = in + p * g.in_plane();
    T best = -std::numeric_limits<T>::infinity();
    int64_t best_i = -1;
    for_window(g, lo, hi, [&](int64_t i) {
      if (best_i < 0 || xp[i] > best || std::isnan(xp[i])) best = xp[i], best_i = i;
    });
    y[p * g.out_plane() + o] = best;
    a.indices[p * g.out_plane() + o] = best_i;
  });
}

template <typename T>
void index_scatter_loop(const ops::IndexScatterArgs& a) {
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  const int64_t in_plane = a.in_plane, out_plane = a.out_plane;
  for_planes(a.planes, out_plane, [&](int64_t p) {
    for (int64_t o = 0; o < out_plane; ++o) {
      const int64_t i = a.indices[p * out_plane + o];
      if (i >= 0 && i < in_plane) gip[p * in_plane + i] += gop[p * out_plane + o];
    }
  });
}

// One kernel per loop: the loop in the compute dtype the arguments name.
#define BRASA_POOL_KERNEL(name, loop, Args) \
  void name(const Args& a) {                \
    if (a.dtype == kDouble)                 \
      loop<double>(a);                      \
    else                                    \
      loop<float>(a);                       \
  }
BRASA_POOL_KERNEL(max_pool_kernel, max_pool_loop, PoolArgs)
BRASA_POOL_KERNEL(avg_pool_kernel, avg_pool_loop, PoolArgs)
BRASA_POOL_KERNEL(avg_pool_backward_kernel, avg_pool_backward_loop, PoolArgs)
BRASA_POOL_KERNEL(adaptive_avg_kernel, adaptive_avg_loop, PoolArgs)
BRASA_POOL_KERNEL(adaptive_avg_backward_kernel, adaptive_avg_backward_loop, PoolArgs)
BRASA_POOL_KERNEL(adaptive_max_kernel, adaptive_max_loop, PoolArgs)
BRASA_POOL_KERNEL(index_scatter_kernel, index_scatter_loop, ops::IndexScatterArgs)
#undef BRASA_POOL_KERNEL

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(max_pool_stub, ::brasa::cpu::max_pool_kernel);
BRASA_REGISTER_STUB(avg_pool_stub, ::brasa::cpu::avg_pool_kernel);
BRASA_REGISTER_STUB(avg_pool_backward_stub, ::brasa::cpu::avg_pool_backward_kernel);
BRASA_REGISTER_STUB(adaptive_avg_pool_stub, ::brasa::cpu::adaptive_avg_kernel);
BRASA_REGISTER_STUB(adaptive_avg_pool_backward_stub, ::brasa::cpu::adaptive_avg_backward_kernel);
BRASA_REGISTER_STUB(adaptive_max_pool_stub, ::brasa::cpu::adaptive_max_kernel);
BRASA_REGISTER_STUB(max_pool_backward_stub, ::brasa::cpu::index_scatter_kernel);
}  // namespace brasa::ops
