// Loops of grid_sampler_2d / 3d (grid_sample_kernels.h) in Float or Double: per grid point, the
// source coordinate of each axis (unnormalised, then put through the padding mode, with its
// derivative), then the bilinear / trilinear corners, the nearest pixel or the 4x4 bicubic taps.
// Built for DEFAULT only: gathers and scatters at data-dependent positions.
#define BRASA_KERNEL_DEFAULT_ONLY
#include "backends/cpu/kernels/grid_sample_kernels.h"

#include <array>
#include <cmath>

#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using ops::GridSampleArgs;

/// A source coordinate and d(coordinate)/d(grid value).
template <typename T>
struct Coord {
  T x;
  T dx;
};

/// [-1, 1] -> pixel units: -1 and 1 are the centres of the corner pixels (align_corners) or
/// their outer edges.
template <typename T>
Coord<T> unnormalize(T g, int64_t size, bool align_corners) {
  const T s = static_cast<T>(size);
  if (align_corners) return {(g + 1) / 2 * (s - 1), (s - 1) / 2};
  return {((g + 1) * s - 1) / 2, s / 2};
}

/// x clamped to [0, size - 1]; derivative 1 strictly inside, 0 at and beyond the ends.
template <typename T>
Coord<T> clip(Coord<T> c, int64_t size) {
  const T hi = static_cast<T>(size - 1);
  if (c.x <= 0) return {0, 0};
  if (c.x >= hi) return {hi, 0};
  return c;
}

/// x folded into [low, high] (given doubled) by mirroring at the bounds; the derivative changes
/// sign with every mirror.
template <typename T>
Coord<T> reflect(Coord<T> c, T twice_low, T twice_high) {
  if (twice_low == twice_high) return {0, 0};
  const T low = twice_low / 2, span = (twice_high - twice_low) / 2;
  T d = c.x - low;
  T sign = 1;
  if (d < 0) {
    d = -d;
    sign = -1;
  }
  const T extra = std::fmod(d, span);
  // The parity of the number of mirrors, in floating point: d may exceed every integer type.
  const bool even = std::fmod(std::floor(d / span), T(2)) == 0;
  if (even) return {extra + low, c.dx * sign};
  return {span - extra + low, -c.dx * sign};
}

/// The padding mode applied to an unnormalised coordinate (zeros: unchanged).
template <typename T>
Coord<T> pad(Coord<T> c, int64_t size, int64_t padding, bool align_corners) {
  if (padding == ops::kGridBorder) return clip(c, size);
  if (padding == ops::kGridReflection) {
    const T s = static_cast<T>(size);
    c = align_corners ? reflect<T>(c, 0, 2 * (s - 1)) : reflect<T>(c, -1, 2 * s - 1);
    return clip(c, size);
  }
  return c;
}

/// A coordinate that is NaN, infinite or beyond the int range becomes -100 (out of bounds, so it
/// samples 0) before it is converted to an index, as in libtorch.
template <typename T>
T safe(T x) {
  return std::abs(x) < static_cast<T>(1 << 30) ? x : static_cast<T>(-100);
}

constexpr double kCubicA = -0.75;

/// Cubic convolution weights of the taps at floor - 1 .. floor + 2 for fraction t, and their
/// derivatives in t.
template <typename T>
void cubic(T t, T w[4], T dw[4]) {
  const T a = static_cast<T>(kCubicA);
  auto near = [a](T x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [a](T x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  auto dnear = [a](T x) { return 3 * (a + 2) * x * x - 2 * (a + 3) * x; };
  auto dfar = [a](T x) { return 3 * a * x * x - 10 * a * x + 8 * a; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
  dw[0] = dfar(t + 1);
  dw[1] = dnear(t);
  dw[2] = -dnear(1 - t);
  dw[3] = -dfar(2 - t);
}

/// One grid point's taps: up to 16 input offsets within a plane, their weights and, per axis, the
/// derivative of each weight with respect to that axis's source coordinate.
template <typename T>
struct Taps {
  int count = 0;
  std::array<int64_t, 16> offset{};
  std::array<T, 16> weight{};
  std::array<std::array<T, 16>, 3> dweight{};
  std::array<T, 3> dcoord{};  // d(source coordinate)/d(grid value), per axis (x, y, z)
};

/// size of axis k (0 = x = in[2], 1 = y = in[1], 2 = z = in[0]) and its stride within a plane.
struct Axes {
  int64_t size[3];
  int64_t stride[3];
};

template <typename T>
void add_tap(Taps<T>& t, const Axes& ax, int dims, const int64_t pos[3], T w, const T dw[3]) {
  for (int k = 0; k < dims; ++k)
    if (pos[k] < 0 || pos[k] >= ax.size[k]) return;  // out of bounds: reads as 0
  int64_t off = 0;
  for (int k = 0; k < dims; ++k) off += pos[k] * ax.stride[k];
  t.offset[t.count] = off;
  t.weight[t.count] = w;
  for (int k = 0; k < dims; ++k) t.dweight[k][t.count] = dw[k];
  ++t.count;
}

template <typename T>
Taps<T> taps_of(const GridSampleArgs& a, const Axes& ax, const T* g) {
  const int dims = static_cast<int>(a.dims);
  Taps<T> t;
  if (a.mode == ops::kGridBicubic) {  // 2-d: padding per tap, the weights' derivative only
    T w[2][4], dw[2][4];
    int64_t base[2];
    for (int k = 0; k < 2; ++k) {
      Coord<T> c = unnormalize(g[k], ax.size[k], a.align_corners);
      t.dcoord[k] = c.dx;
      const T sx = safe(c.x);
      const T f = std::floor(sx);
      base[k] = static_cast<int64_t>(f);
      cubic<T>(sx - f, w[k], dw[k]);
    }
    for (int j = 0; j < 4; ++j) {
      for (int i = 0; i < 4; ++i) {
        int64_t pos[3] = {0, 0, 0};
        const int64_t raw[2] = {base[0] - 1 + i, base[1] - 1 + j};
        for (int k = 0; k < 2; ++k) {
          Coord<T> p = pad<T>({static_cast<T>(raw[k]), 0}, ax.size[k], a.padding, a.align_corners);
          pos[k] = static_cast<int64_t>(safe(p.x));
        }
        const T d[3] = {dw[0][i] * w[1][j], w[0][i] * dw[1][j], 0};
        add_tap(t, ax, 2, pos, w[0][i] * w[1][j], d);
      }
    }
    return t;
  }
  T x[3] = {0, 0, 0};
  for (int k = 0; k < dims; ++k) {
    Coord<T> c =
        pad(unnormalize(g[k], ax.size[k], a.align_corners), ax.size[k], a.padding, a.align_corners);
    x[k] = safe(c.x);
    t.dcoord[k] = c.dx;
  }
  if (a.mode == ops::kGridNearest) {
    int64_t pos[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) pos[k] = static_cast<int64_t>(std::nearbyint(x[k]));
    const T zero[3] = {0, 0, 0};
    add_tap(t, ax, dims, pos, T(1), zero);
    return t;
  }
  int64_t lo[3] = {0, 0, 0};
  T frac[3] = {0, 0, 0};
  for (int k = 0; k < dims; ++k) {
    const T f = std::floor(x[k]);
    lo[k] = static_cast<int64_t>(f);
    frac[k] = x[k] - f;
  }
  for (int corner = 0; corner < (1 << dims); ++corner) {
    int64_t pos[3] = {0, 0, 0};
    T wk[3] = {1, 1, 1};
    for (int k = 0; k < dims; ++k) {
      const bool up = (corner >> k) & 1;
      pos[k] = lo[k] + (up ? 1 : 0);
      wk[k] = up ? frac[k] : 1 - frac[k];
    }
    T w = 1;
    T d[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) w *= wk[k];
    for (int k = 0; k < dims; ++k) {
      T rest = (corner >> k) & 1 ? T(1) : T(-1);
      for (int j = 0; j < dims; ++j)
        if (j != k) rest *= wk[j];
      d[k] = rest;
    }
    add_tap(t, ax, dims, pos, w, d);
  }
  return t;
}

Axes axes_of(const GridSampleArgs& a) {
  return {{a.in[2], a.in[1], a.in[0]}, {1, a.in[2], a.in[1] * a.in[2]}};
}

template <typename T>
void forward_loop(const GridSampleArgs& a) {
  const T* in = static_cast<const T*>(a.input);
  const T* grid = static_cast<const T*>(a.grid);
  T* y = static_cast<T*>(a.output);
  const Axes ax = axes_of(a);
  const int64_t points = a.out[0] * a.out[1] * a.out[2];
  const int64_t plane = a.in[0] * a.in[1] * a.in[2];
  const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, a.c));
  parallel_for(0, a.n * points, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t n = i / points, p = i % points;
      const Taps<T> t = taps_of<T>(a, ax, grid + i * a.dims);
      for (int64_t c = 0; c < a.c; ++c) {
        const T* src = in + (n * a.c + c) * plane;
        T acc = 0;
        for (int k = 0; k < t.count; ++k) acc += src[t.offset[k]] * t.weight[k];
        y[(n * a.c + c) * points + p] = acc;
      }
    }
  });
}

template <typename T>
void backward_loop(const GridSampleArgs& a) {
  const T* in = static_cast<const T*>(a.input);
  const T* grid = static_cast<const T*>(a.grid);
  const T* go = static_cast<const T*>(a.grad_output);
  T* gi = static_cast<T*>(a.grad_input);
  T* gg = static_cast<T*>(a.grad_grid);
  const Axes ax = axes_of(a);
  const int64_t points = a.out[0] * a.out[1] * a.out[2];
  const int64_t plane = a.in[0] * a.in[1] * a.in[2];
  // One task per batch element: the points of an element scatter into the same planes.
  parallel_for(0, a.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t n = b; n < e; ++n) {
      for (int64_t p = 0; p < points; ++p) {
        const int64_t i = n * points + p;
        const Taps<T> t = taps_of<T>(a, ax, grid + i * a.dims);
        T dg[3] = {0, 0, 0};
        for (int64_t c = 0; c < a.c; ++c) {
          const T g = go[(n * a.c + c) * points + p];
          const T* src = in + (n * a.c + c) * plane;
          T* dst = gi + (n * a.c + c) * plane;
          for (int k = 0; k < t.count; ++k) {
            dst[t.offset[k]] += g * t.weight[k];
            const T v = src[t.offset[k]] * g;
            for (int64_t d = 0; d < a.dims; ++d) dg[d] += v * t.dweight[d][k];
          }
        }
        for (int64_t d = 0; d < a.dims; ++d) gg[i * a.dims + d] = dg[d] * t.dcoord[d];
      }
    }
  });
}

void forward_kernel(const GridSampleArgs& a) {
  if (a.dtype == kDouble)
    forward_loop<double>(a);
  else
    forward_loop<float>(a);
}

void backward_kernel(const GridSampleArgs& a) {
  if (a.dtype == kDouble)
    backward_loop<double>(a);
  else
    backward_loop<float>(a);
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(grid_sample_stub, ::brasa::cpu::forward_kernel);
BRASA_REGISTER_STUB(grid_sample_backward_stub, ::brasa::cpu::backward_kernel);
}  // namespace brasa::ops
