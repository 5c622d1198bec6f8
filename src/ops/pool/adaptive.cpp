// adaptive_avg_pool{1,2,3}d, adaptive_max_pool{1,2,3}d and their backward ops. Output cell o of
// an input dim of size n spans [floor(o * n / out), ceil((o + 1) * n / out)).
#include <cmath>
#include <limits>
#include <tuple>

#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {
namespace {
using pool::Geometry;

template <int64_t N>
Geometry adaptive_geometry(const Tensor& self, IntArrayRef output_size, const char* op) {
  pool::check_pool_input(self, N, op);
  BRASA_CHECK(static_cast<int64_t>(output_size.size()) == N, op, ": output_size must have ", N,
              " elements, got ", pool::shape_str(output_size));
  Geometry g;
  pool::set_in(g, self, N);
  for (int64_t i = 0; i < N; ++i) {
    BRASA_CHECK(output_size[i] >= 0, op, ": output_size must be non-negative, got ",
                pool::shape_str(output_size));
    g.out[3 - N + i] = output_size[i];
  }
  return g;
}

/// Calls f(plane, output offset, window [lo, hi) per dim) for every output element.
template <typename F>
void for_cells(int64_t planes, const Geometry& g, const F& f) {
  const int64_t work = g.in_plane() + g.out_plane();
  pool::for_planes(planes, work, [&](int64_t p) {
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

template <typename T, typename F>
void for_window(const Geometry& g, const int64_t* lo, const int64_t* hi, const F& f) {
  for (int64_t d = lo[0]; d < hi[0]; ++d)
    for (int64_t h = lo[1]; h < hi[1]; ++h)
      for (int64_t w = lo[2]; w < hi[2]; ++w) f((d * g.in[1] + h) * g.in[2] + w);
}

template <int64_t N>
Geometry adaptive_avg_geometry(const Tensor& self, IntArrayRef output_size) {
  static const std::string name = "adaptive_avg_pool" + std::to_string(N) + "d";
  return adaptive_geometry<N>(self, output_size, name.c_str());
}

template <int64_t N>
Tensor adaptive_avg_meta(const Tensor& self, IntArrayRef output_size) {
  const Geometry g = adaptive_avg_geometry<N>(self, output_size);
  return pool::result_like(pool::out_shape(self, g, N), self);
}

template <int64_t N>
Tensor adaptive_avg_kernel(const Tensor& self, IntArrayRef output_size) {
  const Geometry g = adaptive_avg_geometry<N>(self, output_size);
  const Tensor result = pool::result_like(pool::out_shape(self, g, N), self);
  return pool::run_compute(self, result, false, [&](const auto* in, auto* y) {
    using scalar_t = std::remove_pointer_t<decltype(y)>;
    for_cells(pool::planes_of(self, N), g,
              [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
                const scalar_t* xp = in + p * g.in_plane();
                scalar_t sum = 0;
                for_window<scalar_t>(g, lo, hi, [&](int64_t i) { sum += xp[i]; });
                const int64_t n = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
                y[p * g.out_plane() + o] = sum / static_cast<scalar_t>(n);
              });
  });
}

// The checked geometry of the backward.
template <int64_t N>
Geometry adaptive_avg_backward_geometry(const Tensor& grad_output, const Tensor& self) {
  static const std::string name = "adaptive_avg_pool" + std::to_string(N) + "d_backward";
  pool::check_floating(grad_output, name.c_str());
  BRASA_CHECK(grad_output.dim() == self.dim(), name, ": grad_output of shape ",
              pool::shape_str(grad_output.sizes()), " does not match self of shape ",
              pool::shape_str(self.sizes()));
  const Geometry g = adaptive_geometry<N>(
      self, grad_output.sizes().slice(static_cast<size_t>(grad_output.dim() - N)), name.c_str());
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(pool::out_shape(self, g, N)), name,
              ": grad_output of shape ", pool::shape_str(grad_output.sizes()),
              " does not match self of shape ", pool::shape_str(self.sizes()));
  return g;
}

template <int64_t N>
Tensor adaptive_avg_backward_meta(const Tensor& grad_output, const Tensor& self) {
  adaptive_avg_backward_geometry<N>(grad_output, self);
  return pool::result_like(self.sizes(), self);
}

template <int64_t N>
Tensor adaptive_avg_backward_kernel(const Tensor& grad_output, const Tensor& self) {
  const Geometry g = adaptive_avg_backward_geometry<N>(grad_output, self);
  const Tensor result = pool::result_like(self.sizes(), self);
  return pool::run_compute(grad_output, result, true, [&](const auto* gop, auto* gip) {
    using scalar_t = std::remove_pointer_t<decltype(gip)>;
    for_cells(pool::planes_of(self, N), g,
              [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
                scalar_t* xp = gip + p * g.in_plane();
                const int64_t n = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
                const scalar_t v = gop[p * g.out_plane() + o] / static_cast<scalar_t>(n);
                for_window<scalar_t>(g, lo, hi, [&](int64_t i) { xp[i] += v; });
              });
  });
}

// The shape rule: the checked geometry and the empty values and indices.
template <int64_t N>
std::tuple<Geometry, Tensor, Tensor> adaptive_max_rule(const Tensor& self,
                                                       IntArrayRef output_size) {
  static const std::string name = "adaptive_max_pool" + std::to_string(N) + "d";
  const Geometry g = adaptive_geometry<N>(self, output_size, name.c_str());
  const DimVector shape = pool::out_shape(self, g, N);
  return {g, pool::result_like(shape, self), detail::empty_generic(shape, kLong, self.device())};
}

template <int64_t N>
std::tuple<Tensor, Tensor> adaptive_max_meta(const Tensor& self, IntArrayRef output_size) {
  auto rule = adaptive_max_rule<N>(self, output_size);
  return {std::get<1>(rule), std::get<2>(rule)};
}

template <int64_t N>
std::tuple<Tensor, Tensor> adaptive_max_kernel(const Tensor& self, IntArrayRef output_size) {
  Geometry g;
  Tensor result, indices;
  std::tie(g, result, indices) = adaptive_max_rule<N>(self, output_size);
  const Tensor x = pool::compute_input(self);
  Tensor out = pool::compute_output(result);
  pool::dispatch_compute(x.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t* in = x.data_ptr<scalar_t>();
    scalar_t* y = out.data_ptr<scalar_t>();
    int64_t* yi = indices.data_ptr<int64_t>();
    for_cells(pool::planes_of(self, N), g,
              [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi) {
                const scalar_t* xp = in + p * g.in_plane();
                scalar_t best = -std::numeric_limits<scalar_t>::infinity();
                int64_t best_i = -1;
                for_window<scalar_t>(g, lo, hi, [&](int64_t i) {
                  if (best_i < 0 || xp[i] > best || std::isnan(xp[i])) best = xp[i], best_i = i;
                });
                y[p * g.out_plane() + o] = best;
                yi[p * g.out_plane() + o] = best_i;
              });
  });
  return {pool::finish(out, result), indices};
}

template <int64_t N>
Tensor adaptive_max_backward_meta(const Tensor& grad_output, const Tensor& self,
                                  const Tensor& indices) {
  static const std::string name = "adaptive_max_pool" + std::to_string(N) + "d_backward";
  pool::check_pool_input(self, N, name.c_str());
  pool::check_floating(grad_output, name.c_str());
  BRASA_CHECK(indices.defined() && indices.scalar_type() == kLong &&
                  indices.sizes() == grad_output.sizes() && grad_output.dim() == self.dim(),
              name, ": expected int64 indices of grad_output's shape ",
              pool::shape_str(grad_output.sizes()), " with as many dims as self ",
              pool::shape_str(self.sizes()));
  return pool::result_like(self.sizes(), self);
}

template <int64_t N>
Tensor adaptive_max_backward_kernel(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  const Tensor result = adaptive_max_backward_meta<N>(grad_output, self, indices);
  const Tensor go = pool::compute_input(grad_output);
  const Tensor ix = indices.contiguous();
  Tensor gi = pool::compute_output(result);
  gi.zero_();
  int64_t in_plane = 1, out_plane = 1;
  for (int64_t i = 0; i < N; ++i) {
    in_plane *= self.size(self.dim() - 1 - i);
    out_plane *= grad_output.size(grad_output.dim() - 1 - i);
  }
  pool::dispatch_compute(go.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t* gop = go.data_ptr<scalar_t>();
    const int64_t* ip = ix.data_ptr<int64_t>();
    scalar_t* gip = gi.data_ptr<scalar_t>();
    pool::for_planes(pool::planes_of(self, N), out_plane, [&](int64_t p) {
      for (int64_t o = 0; o < out_plane; ++o) {
        const int64_t i = ip[p * out_plane + o];
        if (i >= 0 && i < in_plane) gip[p * in_plane + i] += gop[p * out_plane + o];
      }
    });
  });
  return pool::finish(gi, result);
}

}  // namespace

BRASA_DEFINE_OP(adaptive_avg_pool1d_op)
BRASA_DEFINE_OP(adaptive_avg_pool2d_op)
BRASA_DEFINE_OP(adaptive_avg_pool3d_op)
BRASA_DEFINE_OP(adaptive_avg_pool1d_backward_op)
BRASA_DEFINE_OP(adaptive_avg_pool2d_backward_op)
BRASA_DEFINE_OP(adaptive_avg_pool3d_backward_op)
BRASA_DEFINE_OP(adaptive_max_pool1d_op)
BRASA_DEFINE_OP(adaptive_max_pool2d_op)
BRASA_DEFINE_OP(adaptive_max_pool3d_op)
BRASA_DEFINE_OP(adaptive_max_pool1d_backward_op)
BRASA_DEFINE_OP(adaptive_max_pool2d_backward_op)
BRASA_DEFINE_OP(adaptive_max_pool3d_backward_op)

BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_op, adaptive_avg_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_op, adaptive_avg_meta<1>, Meta)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_op, adaptive_avg_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_op, adaptive_avg_meta<2>, Meta)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_op, adaptive_avg_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_op, adaptive_avg_meta<3>, Meta)
BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_backward_op, adaptive_avg_backward_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool1d_backward_op, adaptive_avg_backward_meta<1>, Meta)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_backward_op, adaptive_avg_backward_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool2d_backward_op, adaptive_avg_backward_meta<2>, Meta)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_backward_op, adaptive_avg_backward_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(adaptive_avg_pool3d_backward_op, adaptive_avg_backward_meta<3>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_op, adaptive_max_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_op, adaptive_max_meta<1>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_op, adaptive_max_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_op, adaptive_max_meta<2>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_op, adaptive_max_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_op, adaptive_max_meta<3>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_backward_op, adaptive_max_backward_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool1d_backward_op, adaptive_max_backward_meta<1>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_backward_op, adaptive_max_backward_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool2d_backward_op, adaptive_max_backward_meta<2>, Meta)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_backward_op, adaptive_max_backward_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(adaptive_max_pool3d_backward_op, adaptive_max_backward_meta<3>, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_avg_pool1d_op().call(self, output_size);
}
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_avg_pool2d_op().call(self, output_size);
}
Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_avg_pool3d_op().call(self, output_size);
}
Tensor adaptive_avg_pool1d_backward(const Tensor& grad_output, const Tensor& self) {
  return ops::adaptive_avg_pool1d_backward_op().call(grad_output, self);
}
Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self) {
  return ops::adaptive_avg_pool2d_backward_op().call(grad_output, self);
}
Tensor adaptive_avg_pool3d_backward(const Tensor& grad_output, const Tensor& self) {
  return ops::adaptive_avg_pool3d_backward_op().call(grad_output, self);
}
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_max_pool1d_op().call(self, output_size);
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_max_pool2d_op().call(self, output_size);
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntArrayRef output_size) {
  return ops::adaptive_max_pool3d_op().call(self, output_size);
}
Tensor adaptive_max_pool1d_backward(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  return ops::adaptive_max_pool1d_backward_op().call(grad_output, self, indices);
}
Tensor adaptive_max_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  return ops::adaptive_max_pool2d_backward_op().call(grad_output, self, indices);
}
Tensor adaptive_max_pool3d_backward(const Tensor& grad_output, const Tensor& self,
                                    const Tensor& indices) {
  return ops::adaptive_max_pool3d_backward_op().call(grad_output, self, indices);
}

}  // namespace brasa
