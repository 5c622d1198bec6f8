// avg_pool{1,2,3}d and avg_pool{2,3}d_backward: window sums over the unpadded part divided by the
// window size (count_include_pad: padding counted, clipped to input + padding), or by
// divisor_override. Loops: backends/cpu/kernels/pool_kernels.cpp.
#include <optional>

#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {
namespace {
using pool::Geometry;

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
  return pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    avg_pool_stub(PoolArgs{dt, in, y, nullptr, pool::planes_of(self, N), g, count_include_pad,
                           divisor_override.value_or(0)});
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
  return pool::run_compute(grad_output, result, true, [&](ScalarType dt, const void* go, void* gi) {
    avg_pool_backward_stub(PoolArgs{dt, go, gi, nullptr, pool::planes_of(self, N), g,
                                    count_include_pad, divisor_override.value_or(0)});
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
