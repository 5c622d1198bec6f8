// Loops of max, average and adaptive pooling (pool_kernels.h), in Float or Double. Built for
// DEFAULT only, at -O3: the AVX2 and AVX-512 builds measured no faster than the -O3 DEFAULT build,
// and the usual -O2 DEFAULT build was up to 2x slower on average pooling (docs/benchmarks.md; Note
// [Capability builds per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#define BRASA_KERNEL_DEFAULT_O3
#include "backends/cpu/kernels/pool_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernels/plane_loop.h"

namespace brasa::cpu {
namespace {

using ops::PoolArgs;
using ops::PoolGeometry;

// Note [Max pooling loop]
// Each output row (od, oh) is split at the columns whose windows lie wholly inside the input row:
// the columns at either edge (padding, ceil_mode) take the per-window loop, max_pool_window; the
// interior takes max_pool_block, one vector of L adjacent outputs at a time, which visits the
// window's taps in the same order (kd, kh, kw) with a branchless update: a tap replaces the best
// value when it is greater or NaN. So ties keep the first tap and the last NaN wins, the indices
// PyTorch 1.13 returns. GCC's vector extensions (16 bytes: SSE2 in the DEFAULT build, the only one
// of this file) carry the values and, in an integer of the same width, their in-plane offsets;
// loads of taps at stride 1 or 2 are whole vectors (a shuffle for 2), any other stride gathers.
// The planes (N * C) run in parallel (for_planes); the rows of every window are found once per call
// (max_pool_plan), not per output. No AVX2/AVX-512 copies: this 16-byte form is already 4-8x
// PyTorch 1.13's forward (docs/benchmarks.md) and the library has no room for two more.
template <typename T>
struct MaxLanes {
  static constexpr int L = 16 / sizeof(T);
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef T V __attribute__((vector_size(16)));
  typedef I IV __attribute__((vector_size(16)));
};

/// Taps (kd, kh, kw) of a window in visiting order: x[rows[r] + col + kw * dilation].
struct MaxWindow {
  const int64_t* rows;
  int64_t n_rows, kw_lo, kw_hi, dilation;
};

template <typename T>
void max_pool_window(const T* x, const MaxWindow& w, int64_t col, T* y, int64_t* yi) {
  T best = -std::numeric_limits<T>::infinity();
  int64_t best_i = -1;
  for (int64_t r = 0; r < w.n_rows; ++r)
    for (int64_t kw = w.kw_lo; kw < w.kw_hi; ++kw) {
      const int64_t i = w.rows[r] + col + kw * w.dilation;
      const T v = x[i];
      const bool take = best_i < 0 || v > best || v != v;
      best = take ? v : best;
      best_i = take ? i : best_i;
    }
  *y = best;
  *yi = best_i;
}

/// L outputs whose windows start at columns col + l * s, all taps inside the input row.
template <typename T>
void max_pool_block(const T* x, const MaxWindow& w, int64_t kernel, int64_t col, int64_t s, T* y,
                    int64_t* yi) {
  using M = MaxLanes<T>;
  using V = typename M::V;
  using IV = typename M::IV;
  constexpr int L = M::L;
  IV step;
  for (int l = 0; l < L; ++l) step[l] = static_cast<typename M::I>(l * s);
  auto load = [&](const T* q) {
    V v, u;
    if (s == 1) {
      std::memcpy(&v, q, sizeof v);
    } else if (s == 2) {  // q[0, 2, .., 2L - 2] from q[0, L) and q[L - 1, 2L - 1): no read past
      std::memcpy(&v, q, sizeof v);
      std::memcpy(&u, q + L - 1, sizeof u);
      if constexpr (L == 4)
        v = __builtin_shuffle(v, u, IV{0, 2, 5, 7});
      else
        v = __builtin_shuffle(v, u, IV{0, 3});
    } else {
      for (int l = 0; l < L; ++l) v[l] = q[l * s];
    }
    return v;
  };
  V best{};
  IV best_i{};
  for (int64_t r = 0; r < w.n_rows; ++r)
    for (int64_t kw = 0; kw < kernel; ++kw) {
      const int64_t i = w.rows[r] + col + kw * w.dilation;
      const V v = load(x + i);
      const IV at = static_cast<typename M::I>(i) + step;
      if (r == 0 && kw == 0) {  // the first tap, taken whatever it holds (-inf, NaN)
        best = v, best_i = at;
        continue;
      }
      const auto take = (v > best) | (v != v);
      best = take ? v : best;
      best_i = take ? at : best_i;
    }
  std::memcpy(y, &best, sizeof best);
  for (int l = 0; l < L; ++l) yi[l] = best_i[l];
}

/// The kernel taps k of dim `dim` whose input position o*s - p + k*d lies in [0, in): [lo, hi).
void window_taps(const PoolGeometry& g, int dim, int64_t o, int64_t& lo, int64_t& hi) {
  const int64_t start = o * g.stride[dim] - g.pad[dim], d = g.dilation[dim];
  lo = start >= 0 ? 0 : (-start + d - 1) / d;
  const int64_t room = g.in[dim] - start;  // taps with k*d < room are inside
  hi = room <= 0 ? 0 : std::min<int64_t>(g.kernel[dim], (room + d - 1) / d);
  if (hi < lo) hi = lo;
}

/// What every plane of a max pooling shares: the rows (kd, kh) inside each output row (od, oh), as
/// offsets in a plane, and the output columns [c_lo, c_hi) whose taps are all inside the input row.
struct MaxPlan {
  std::vector<int64_t> rows, n_rows;
  int64_t k_rows, c_lo, c_hi;
};

MaxPlan max_pool_plan(const PoolGeometry& g) {
  MaxPlan m;
  m.k_rows = g.kernel[0] * g.kernel[1];
  m.rows.resize(static_cast<size_t>(g.out[0] * g.out[1] * m.k_rows));
  m.n_rows.resize(static_cast<size_t>(g.out[0] * g.out[1]));
  for (int64_t od = 0, r = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh, ++r) {
      int64_t d_lo, d_hi, h_lo, h_hi, n = 0;
      window_taps(g, 0, od, d_lo, d_hi);
      window_taps(g, 1, oh, h_lo, h_hi);
      for (int64_t kd = d_lo; kd < d_hi; ++kd)
        for (int64_t kh = h_lo; kh < h_hi; ++kh, ++n)
          m.rows[static_cast<size_t>(r * m.k_rows + n)] =
              ((od * g.stride[0] - g.pad[0] + kd * g.dilation[0]) * g.in[1] + oh * g.stride[1] -
               g.pad[1] + kh * g.dilation[1]) *
              g.in[2];
      m.n_rows[static_cast<size_t>(r)] = n;
    }
  const int64_t s = g.stride[2], p = g.pad[2];
  const int64_t last = g.in[2] - 1 + p - (g.kernel[2] - 1) * g.dilation[2];  // last start * s
  m.c_lo = std::min(g.out[2], (p + s - 1) / s);
  m.c_hi = last < 0 ? m.c_lo : std::clamp(last / s + 1, m.c_lo, g.out[2]);
  return m;
}

template <typename T>
void max_pool_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* out = static_cast<T*>(a.dst);
  constexpr int L = MaxLanes<T>::L;
  const MaxPlan m = max_pool_plan(g);
  // Columns [c_lo, c_hi) are computed L at a time, the last block overlapping the one before when
  // L does not divide them (an output's value does not depend on its block). Vector blocks need
  // the offsets of a float plane to fit in int32.
  const int64_t s = g.stride[2], p = g.pad[2], k = g.kernel[2], c_lo = m.c_lo, c_hi = m.c_hi;
  const bool vec =
      c_hi - c_lo >= L && (sizeof(T) == 8 || g.in_plane() <= std::numeric_limits<int32_t>::max());
  for_planes(a.planes, g.out_plane() * m.k_rows * k, [&](int64_t pl) {
    const T* x = in + pl * g.in_plane();
    T* y = out + pl * g.out_plane();
    int64_t* yi = a.indices + pl * g.out_plane();
    for (size_t r = 0; r < m.n_rows.size(); ++r, y += g.out[2], yi += g.out[2]) {
      MaxWindow w{m.rows.data() + static_cast<int64_t>(r) * m.k_rows, m.n_rows[r], 0, k,
                  g.dilation[2]};
      for (int64_t o = 0; o < g.out[2]; ++o) {
        if (o == c_lo && vec && w.n_rows > 0) {
          for (;; o += L) {
            o = std::min(o, c_hi - L);
            max_pool_block(x, w, k, o * s - p, s, y + o, yi + o);
            if (o + L >= c_hi) break;
          }
          o = c_hi - 1;
          continue;
        }
        if (o >= c_lo && o < c_hi)
          w.kw_lo = 0, w.kw_hi = k;
        else
          window_taps(g, 2, o, w.kw_lo, w.kw_hi);
        max_pool_window(x, w, o * s - p, y + o, yi + o);
      }
    }
  });
}

/// The windows of an average or adaptive pooling along each dim, found once per call: output
/// position o of dim j reads [lo, hi) (clipped to the input) and spans `padded` positions counting
/// the padding, stored as {lo, hi, padded} at plan[3 * (first[j] + o)].
std::vector<int64_t> avg_plan(const PoolGeometry& g, bool adaptive) {
  std::vector<int64_t> plan;
  for (int j = 0; j < 3; ++j)
    for (int64_t o = 0; o < g.out[j]; ++o) {
      int64_t lo, hi;
      if (adaptive) {
        lo = o * g.in[j] / g.out[j];
        hi = ((o + 1) * g.in[j] + g.out[j] - 1) / g.out[j];
      } else {
        lo = o * g.stride[j] - g.pad[j];
        hi = std::min(lo + g.kernel[j], g.in[j] + g.pad[j]);
      }
      const int64_t padded = hi - lo;
      lo = std::max<int64_t>(lo, 0);
      plan.insert(plan.end(), {lo, std::max(lo, std::min(hi, g.in[j])), padded});
    }
  return plan;
}

/// Calls f(plane, output offset, input window [lo, hi) per dim, divisor) for every output of an
/// average pooling or, when `adaptive`, of an adaptive pooling (its cells and their sizes). One
/// loop for the family, its two kinds of windows planned at run time, keeps the library small
/// (Note [Library size] in src/CMakeLists.txt).
template <typename F>
void for_avg_windows(const PoolArgs& a, bool adaptive, const F& f) {
  const PoolGeometry& g = a.g;
  const std::vector<int64_t> plan = avg_plan(g, adaptive);
  const int64_t* d_plan = plan.data();
  const int64_t* h_plan = d_plan + 3 * g.out[0];
  const int64_t* w_plan = h_plan + 3 * g.out[1];
  const bool count_pad = a.count_include_pad && !adaptive;
  const int64_t work = adaptive ? g.in_plane() + g.out_plane()
                                : g.out_plane() * g.kernel[0] * g.kernel[1] * g.kernel[2];
  for_planes(a.planes, work, [&](int64_t p) {
    int64_t o = 0;
    for (const int64_t* d = d_plan; d != h_plan; d += 3)
      for (const int64_t* h = h_plan; h != w_plan; h += 3)
        for (const int64_t* w = w_plan; w != w_plan + 3 * g.out[2]; w += 3, ++o) {
          const int64_t lo[3] = {d[0], h[0], w[0]}, hi[3] = {d[1], h[1], w[1]};
          const int64_t divisor = a.divisor != 0 && !adaptive ? a.divisor
                                  : count_pad                 ? d[2] * h[2] * w[2]
                                              : (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
          f(p, o, lo, hi, divisor);
        }
  });
}

/// Average pooling and adaptive average pooling, forward or backward (the gradient spread evenly
/// over each window).
template <typename T, bool backward>
void avg_loop(const PoolArgs& a, bool adaptive) {
  const PoolGeometry& g = a.g;
  const T* src = static_cast<const T*>(a.src);
  T* dst = static_cast<T*>(a.dst);
  for_avg_windows(a, adaptive,
                  [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t div) {
                    if constexpr (backward) {
                      T* xp = dst + p * g.in_plane();
                      const T v = src[p * g.out_plane() + o] / static_cast<T>(div);
                      for (int64_t d = lo[0]; d < hi[0]; ++d)
                        for (int64_t h = lo[1]; h < hi[1]; ++h)
                          for (int64_t w = lo[2]; w < hi[2]; ++w)
                            xp[(d * g.in[1] + h) * g.in[2] + w] += v;
                    } else {
                      const T* xp = src + p * g.in_plane();
                      T sum = 0;
                      for (int64_t d = lo[0]; d < hi[0]; ++d)
                        for (int64_t h = lo[1]; h < hi[1]; ++h)
                          for (int64_t w = lo[2]; w < hi[2]; ++w)
                            sum += xp[(d * g.in[1] + h) * g.in[2] + w];
                      dst[p * g.out_plane() + o] = sum / static_cast<T>(div);
                    }
                  });
}

template <typename T>
void adaptive_max_loop(const PoolArgs& a) {
  const PoolGeometry& g = a.g;
  const T* in = static_cast<const T*>(a.src);
  T* y = static_cast<T*>(a.dst);
  for_avg_windows(a, true,
                  [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t) {
                    const T* xp = in + p * g.in_plane();
                    T best = -std::numeric_limits<T>::infinity();
                    int64_t best_i = -1;
                    for (int64_t d = lo[0]; d < hi[0]; ++d)
                      for (int64_t h = lo[1]; h < hi[1]; ++h)
                        for (int64_t w = lo[2]; w < hi[2]; ++w) {
                          const int64_t i = (d * g.in[1] + h) * g.in[2] + w;
                          if (best_i < 0 || xp[i] > best || std::isnan(xp[i]))
                            best = xp[i], best_i = i;
                        }
                    y[p * g.out_plane() + o] = best;
                    a.indices[p * g.out_plane() + o] = best_i;
                  });
}

template <typename T>
void index_scatter_loop(const ops::IndexScatterArgs& a) {
  const T* gop = static_cast<const T*>(a.src);
  T* gip = static_cast<T*>(a.dst);
  const T* gate = static_cast<const T*>(a.gate);
  const int64_t in_plane = a.in_plane, out_plane = a.out_plane;
  for_planes(a.planes, in_plane + out_plane, [&](int64_t p) {
    T* gi = gip + p * in_plane;  // zeroed here, while the plane is in cache for the scatter
    std::fill(gi, gi + in_plane, T(0));
    for (int64_t o = 0; o < out_plane; ++o) {
      const int64_t i = a.indices[p * out_plane + o];
      if (static_cast<uint64_t>(i) < static_cast<uint64_t>(in_plane))
        gi[i] += gop[p * out_plane + o];
    }
    // relu's gradient while the plane is in cache (a branch per index would mispredict)
    if (gate)
      for (int64_t j = 0; j < in_plane; ++j) gi[j] = gate[p * in_plane + j] <= T(0) ? T(0) : gi[j];
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
BRASA_POOL_KERNEL(adaptive_max_kernel, adaptive_max_loop, PoolArgs)
BRASA_POOL_KERNEL(index_scatter_kernel, index_scatter_loop, ops::IndexScatterArgs)
template <bool backward>
[[gnu::noinline]] void avg_kernel(const PoolArgs& a, bool adaptive) {
  if (a.dtype == kDouble)
    avg_loop<double, backward>(a, adaptive);
  else
    avg_loop<float, backward>(a, adaptive);
}
void avg_pool_kernel(const PoolArgs& a) { avg_kernel<false>(a, false); }
void avg_pool_backward_kernel(const PoolArgs& a) { avg_kernel<true>(a, false); }
void adaptive_avg_kernel(const PoolArgs& a) { avg_kernel<false>(a, true); }
void adaptive_avg_backward_kernel(const PoolArgs& a) { avg_kernel<true>(a, true); }
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
