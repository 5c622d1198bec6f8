// avg_pool{1,2,3}d and avg_pool{2,3}d_backward: window sums over the unpadded part divided by the
// window size (count_include_pad: padding counted, clipped to input + padding), or by
// divisor_override.
#include <optional>

#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {
namespace {
using pool::Geometry;

/// Calls f(plane, output offset, input window [lo, hi) per dim, divisor) for every output element.
template <typename F>
void for_windows(int64_t planes, const Geometry& g, bool count_include_pad,
                 std::optional<int64_t> divisor_override, const F& f) {
  pool::for_planes(planes, g.out_plane() * g.kernel[0] * g.kernel[1] * g.kernel[2], [&](int64_t p) {
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
              divisor_override ? *divisor_override : (count_include_pad ? padded : inside);
          f(p, o, lo, hi, divisor);
        }
  });
}

template <int64_t N>
Geometry avg_geometry(const Tensor& self, IntArrayRef kernel, IntArrayRef stride,
                      IntArrayRef padding, bool ceil_mode, std::optional<int64_t> divisor_override,
                      const char* op) {
  pool::check_pool_input(self, N, op);
  BRASA_CHECK(!divisor_override || *divisor_override != 0, op, ": divisor must be not zero");
  Geometry g;
  pool::pooling_geometry(g, self, N, kernel, stride, padding, IntArrayRef{1}, ceil_mode, op);
  return g;
}

template <int64_t N>
Geometry avg_pool_geometry(const Tensor& self, IntArrayRef kernel, IntArrayRef stride,
                           IntArrayRef padding, bool ceil_mode,
                           std::optional<int64_t> divisor_override) {
  static const std::string name = "avg_pool" + std::to_string(N) + "d";
  return avg_geometry<N>(self, kernel, stride, padding, ceil_mode, divisor_override, name.c_str());
}

template <int64_t N>
Tensor avg_pool_meta(const Tensor& self, IntArrayRef kernel, IntArrayRef stride,
                     IntArrayRef padding, bool ceil_mode, bool,
                     std::optional<int64_t> divisor_override) {
  const Geometry g =
      avg_pool_geometry<N>(self, kernel, stride, padding, ceil_mode, divisor_override);
  return pool::result_like(pool::out_shape(self, g, N), self);
}

template <int64_t N>
Tensor avg_pool_kernel(const Tensor& self, IntArrayRef kernel, IntArrayRef stride,
                       IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override) {
  const Geometry g =
      avg_pool_geometry<N>(self, kernel, stride, padding, ceil_mode, divisor_override);
  const Tensor result = pool::result_like(pool::out_shape(self, g, N), self);
  return pool::run_compute(self, result, false, [&](const auto* in, auto* y) {
    using scalar_t = std::remove_pointer_t<decltype(y)>;
    for_windows(pool::planes_of(self, N), g, count_include_pad, divisor_override,
                [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t div) {
                  const scalar_t* xp = in + p * g.in_plane();
                  scalar_t sum = 0;
                  for (int64_t d = lo[0]; d < hi[0]; ++d)
                    for (int64_t h = lo[1]; h < hi[1]; ++h)
                      for (int64_t w = lo[2]; w < hi[2]; ++w)
                        sum += xp[(d * g.in[1] + h) * g.in[2] + w];
                  y[p * g.out_plane() + o] = sum / static_cast<scalar_t>(div);
                });
  });
}

// The checked geometry of the backward.
template <int64_t N>
Geometry avg_pool_backward_geometry(const Tensor& grad_output, const Tensor& self,
                                    IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                    bool ceil_mode, std::optional<int64_t> divisor_override) {
  static const std::string name = "avg_pool" + std::to_string(N) + "d_backward";
  const Geometry g =
      avg_geometry<N>(self, kernel, stride, padding, ceil_mode, divisor_override, name.c_str());
  pool::check_floating(grad_output, name.c_str());
  const DimVector shape = pool::out_shape(self, g, N);
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(shape), name, ": expected grad_output of shape ",
              pool::shape_str(shape), ", got ", pool::shape_str(grad_output.sizes()));
  return g;
}

template <int64_t N>
Tensor avg_pool_backward_meta(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                              IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool,
                              std::optional<int64_t> divisor_override) {
  avg_pool_backward_geometry<N>(grad_output, self, kernel, stride, padding, ceil_mode,
                                divisor_override);
  return pool::result_like(self.sizes(), self);
}

template <int64_t N>
Tensor avg_pool_backward_kernel(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                                IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                                bool count_include_pad, std::optional<int64_t> divisor_override) {
  const Geometry g = avg_pool_backward_geometry<N>(grad_output, self, kernel, stride, padding,
                                                   ceil_mode, divisor_override);
  const Tensor result = pool::result_like(self.sizes(), self);
  return pool::run_compute(grad_output, result, true, [&](const auto* gop, auto* gip) {
    using scalar_t = std::remove_pointer_t<decltype(gip)>;
    for_windows(pool::planes_of(self, N), g, count_include_pad, divisor_override,
                [&](int64_t p, int64_t o, const int64_t* lo, const int64_t* hi, int64_t div) {
                  scalar_t* xp = gip + p * g.in_plane();
                  const scalar_t v = gop[p * g.out_plane() + o] / static_cast<scalar_t>(div);
                  for (int64_t d = lo[0]; d < hi[0]; ++d)
                    for (int64_t h = lo[1]; h < hi[1]; ++h)
                      for (int64_t w = lo[2]; w < hi[2]; ++w)
                        xp[(d * g.in[1] + h) * g.in[2] + w] += v;
                });
  });
}

}  // namespace

BRASA_DEFINE_OP(avg_pool1d_op)
BRASA_DEFINE_OP(avg_pool2d_op)
BRASA_DEFINE_OP(avg_pool3d_op)
BRASA_DEFINE_OP(avg_pool1d_backward_op)
BRASA_DEFINE_OP(avg_pool2d_backward_op)
BRASA_DEFINE_OP(avg_pool3d_backward_op)

BRASA_REGISTER_KERNEL(avg_pool1d_op, avg_pool_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(avg_pool1d_op, avg_pool_meta<1>, Meta)
BRASA_REGISTER_KERNEL(avg_pool2d_op, avg_pool_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(avg_pool2d_op, avg_pool_meta<2>, Meta)
BRASA_REGISTER_KERNEL(avg_pool3d_op, avg_pool_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(avg_pool3d_op, avg_pool_meta<3>, Meta)
BRASA_REGISTER_KERNEL(avg_pool1d_backward_op, avg_pool_backward_kernel<1>, CPU)
BRASA_REGISTER_KERNEL(avg_pool1d_backward_op, avg_pool_backward_meta<1>, Meta)
BRASA_REGISTER_KERNEL(avg_pool2d_backward_op, avg_pool_backward_kernel<2>, CPU)
BRASA_REGISTER_KERNEL(avg_pool2d_backward_op, avg_pool_backward_meta<2>, Meta)
BRASA_REGISTER_KERNEL(avg_pool3d_backward_op, avg_pool_backward_kernel<3>, CPU)
BRASA_REGISTER_KERNEL(avg_pool3d_backward_op, avg_pool_backward_meta<3>, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad) {
  return ops::avg_pool1d_op().call(self, kernel, stride, padding, ceil_mode, count_include_pad,
                                   std::nullopt);
}
Tensor avg_pool1d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad) {
  return ops::avg_pool1d_backward_op().call(grad_output, self, kernel, stride, padding, ceil_mode,
                                            count_include_pad, std::nullopt);
}

Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return ops::avg_pool2d_op().call(self, kernel, stride, padding, ceil_mode, count_include_pad,
                                   divisor_override);
}
Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  return ops::avg_pool2d_backward_op().call(grad_output, self, kernel, stride, padding, ceil_mode,
                                            count_include_pad, divisor_override);
}
Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return ops::avg_pool3d_op().call(self, kernel, stride, padding, ceil_mode, count_include_pad,
                                   divisor_override);
}
Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                           IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                           bool count_include_pad, std::optional<int64_t> divisor_override) {
  return ops::avg_pool3d_backward_op().call(grad_output, self, kernel, stride, padding, ceil_mode,
                                            count_include_pad, divisor_override);
}

}  // namespace brasa
