// max_pool{1,2,3}d_with_indices and their backward ops. Indices are flat offsets within each
// input plane (d * H * W + h * W + w); NaN wins over any number, as in PyTorch.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "brasa/dispatch/autocast_mode.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {
namespace {
using pool::Geometry;

template <typename T>
void max_pool_loop(const T* in, T* out, int64_t* idx, int64_t planes, const Geometry& g) {
  // The kernel taps k of one dim whose input position o*s - p + k*d lies in [0, in): [lo, hi).
  auto taps = [&](int dim, int64_t o, int64_t& lo, int64_t& hi) {
    const int64_t start = o * g.stride[dim] - g.pad[dim], d = g.dilation[dim];
    lo = start >= 0 ? 0 : (-start + d - 1) / d;
    const int64_t room = g.in[dim] - start;  // taps with k*d < room are inside
    hi = room <= 0 ? 0 : std::min<int64_t>(g.kernel[dim], (room + d - 1) / d);
    if (hi < lo) hi = lo;
  };
  pool::for_planes(planes, g.out_plane() * g.kernel[0] * g.kernel[1] * g.kernel[2], [&](int64_t p) {
    const T* x = in + p * g.in_plane();
    T* y = out + p * g.out_plane();
    int64_t* yi = idx + p * g.out_plane();
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

// The shape rule: the checked geometry and the empty values and indices.
template <int64_t N>
std::tuple<Geometry, Tensor, Tensor> max_pool_rule(const Tensor& self, IntArrayRef kernel,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  static const std::string name = "max_pool" + std::to_string(N) + "d";
  pool::check_pool_input(self, N, name.c_str());
  Geometry g;
  pool::pooling_geometry(g, self, N, kernel, stride, padding, dilation, ceil_mode, name.c_str());
  const DimVector shape = pool::out_shape(self, g, N);
  return {g, pool::result_like(shape, self), detail::empty_generic(shape, kLong, self.device())};
}

template <int64_t N>
std::tuple<Tensor, Tensor> max_pool_meta(const Tensor& self, IntArrayRef kernel, IntArrayRef stride,
                                         IntArrayRef padding, IntArrayRef dilation,
                                         bool ceil_mode) {
  auto rule = max_pool_rule<N>(self, kernel, stride, padding, dilation, ceil_mode);
  return {std::get<1>(rule), std::get<2>(rule)};
}

template <int64_t N>
std::tuple<Tensor, Tensor> max_pool_kernel(const Tensor& self, IntArrayRef kernel,
                                           IntArrayRef stride, IntArrayRef padding,
                                           IntArrayRef dilation, bool ceil_mode) {
  Geometry g;
  Tensor result, indices;
  std::tie(g, result, indices) =
      max_pool_rule<N>(self, kernel, stride, padding, dilation, ceil_mode);
  const Tensor x = pool::compute_input(self);
  Tensor out = pool::compute_output(result);
  const int64_t planes = pool::planes_of(self, N);
  pool::dispatch_compute(x.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    max_pool_loop(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), indices.data_ptr<int64_t>(),
                  planes, g);
  });
  return {pool::finish(out, result), indices};
}

// The checked geometry of the backward.
template <int64_t N>
Geometry max_pool_backward_geometry(const Tensor& grad_output, const Tensor& self,
                                    IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                    IntArrayRef dilation, bool ceil_mode, const Tensor& indices) {
  static const std::string name = "max_pool" + std::to_string(N) + "d_with_indices_backward";
  pool::check_pool_input(self, N, name.c_str());
  pool::check_floating(grad_output, name.c_str());
  Geometry g;
  pool::pooling_geometry(g, self, N, kernel, stride, padding, dilation, ceil_mode, name.c_str());
  const DimVector shape = pool::out_shape(self, g, N);
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(shape) && indices.defined() &&
                  indices.sizes() == IntArrayRef(shape) && indices.scalar_type() == kLong,
              name, ": expected grad_output and int64 indices of shape ", pool::shape_str(shape),
              ", got ", pool::shape_str(grad_output.sizes()), " and ",
              indices.defined() ? pool::shape_str(indices.sizes()) : std::string("undefined"));
  return g;
}

template <int64_t N>
Tensor max_pool_backward_meta(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                              bool ceil_mode, const Tensor& indices) {
  max_pool_backward_geometry<N>(grad_output, self, kernel, stride, padding, dilation, ceil_mode,
                                indices);
  return pool::result_like(self.sizes(), self);
}

/// Scatter-adds grad_output into a zero grad_input at `indices` (flat offsets within each plane).
template <int64_t N>
Tensor max_pool_backward_kernel(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                                IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                bool ceil_mode, const Tensor& indices) {
  const Geometry g = max_pool_backward_geometry<N>(grad_output, self, kernel, stride, padding,
                                                   dilation, ceil_mode, indices);
  const Tensor result = pool::result_like(self.sizes(), self);
  const Tensor go = pool::compute_input(grad_output);
  const Tensor ix = indices.contiguous();
  Tensor gi = pool::compute_output(result);
  gi.zero_();
  const int64_t planes = pool::planes_of(self, N), in_plane = g.in_plane(),
                out_plane = g.out_plane();
  pool::dispatch_compute(go.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    const scalar_t* gop = go.data_ptr<scalar_t>();
    const int64_t* ip = ix.data_ptr<int64_t>();
    scalar_t* gip = gi.data_ptr<scalar_t>();
    pool::for_planes(planes, out_plane, [&](int64_t p) {
      for (int64_t o = 0; o < out_plane; ++o) {
        const int64_t i = ip[p * out_plane + o];
        if (i >= 0 && i < in_plane) gip[p * in_plane + i] += gop[p * out_plane + o];
      }
    });
  });
  return pool::finish(gi, result);
}

}  // namespace

BRASA_DEFINE_OP(max_pool1d_with_indices_op)
BRASA_DEFINE_OP(max_pool2d_with_indices_op)
BRASA_DEFINE_OP(max_pool3d_with_indices_op)
BRASA_DEFINE_OP(max_pool1d_with_indices_backward_op)
BRASA_DEFINE_OP(max_pool2d_with_indices_backward_op)
BRASA_DEFINE_OP(max_pool3d_with_indices_backward_op)

BRASA_REGISTER_KERNEL(max_pool1d_with_indices_op, max_pool_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(max_pool1d_with_indices_op, max_pool_meta<1>, Meta)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_op, max_pool_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_op, max_pool_meta<2>, Meta)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_op, max_pool_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_op, max_pool_meta<3>, Meta)
BRASA_REGISTER_KERNEL(max_pool1d_with_indices_backward_op, max_pool_backward_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(max_pool1d_with_indices_backward_op, max_pool_backward_meta<1>, Meta)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_backward_op, max_pool_backward_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(max_pool2d_with_indices_backward_op, max_pool_backward_meta<2>, Meta)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_backward_op, max_pool_backward_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(max_pool3d_with_indices_backward_op, max_pool_backward_meta<3>, Meta)

}  // namespace brasa::ops

namespace brasa {

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return ops::max_pool1d_with_indices_op().call(self, kernel, stride, padding, dilation, ceil_mode);
}
Tensor max_pool1d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(max_pool1d_with_indices(self, kernel, stride, padding, dilation, ceil_mode));
}
Tensor max_pool1d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                        IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  return ops::max_pool1d_with_indices_backward_op().call(grad_output, self, kernel, stride, padding,
                                                         dilation, ceil_mode, indices);
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return ops::max_pool2d_with_indices_op().call(self, kernel, stride, padding, dilation, ceil_mode);
}
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(max_pool2d_with_indices(self, kernel, stride, padding, dilation, ceil_mode));
}
Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                        IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  return ops::max_pool2d_with_indices_backward_op().call(grad_output, self, kernel, stride, padding,
                                                         dilation, ceil_mode, indices);
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel,
                                                   IntArrayRef stride, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  return ops::max_pool3d_with_indices_op().call(self, kernel, stride, padding, dilation, ceil_mode);
}
Tensor max_pool3d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a float32 op (not its
    autocast::AutocastExclude exclude;          // with_indices form, as in PyTorch 1.13)
    return max_pool3d(autocast::cached_cast(kFloat, self), kernel, stride, padding, dilation,
                      ceil_mode);
  }
  return std::get<0>(max_pool3d_with_indices(self, kernel, stride, padding, dilation, ceil_mode));
}
Tensor max_pool3d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                        IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices) {
  return ops::max_pool3d_with_indices_backward_op().call(grad_output, self, kernel, stride, padding,
                                                         dilation, ceil_mode, indices);
}

}  // namespace brasa
