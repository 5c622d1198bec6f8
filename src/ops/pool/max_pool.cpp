// max_pool{1,2,3}d_with_indices and their backward ops. Indices are flat offsets within each
// input plane (d * H * W + h * W + w); NaN wins over any number, as in PyTorch. Loops:
// backends/cpu/kernels/pool_kernels.cpp.
#include <tuple>

#include "brasa/dispatch/autocast_mode.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/pool.h"
#include "ops/pointwise/binary_ops.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/pool_ops.h"

namespace brasa::ops {
namespace {
using pool::Geometry;

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
  int64_t* ix = indices.data_ptr<int64_t>();
  pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* out) {
    max_pool_stub(PoolArgs{dt, in, out, ix, pool::planes_of(self, N), g, false, 0});
  });
  return {result, indices};
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

/// Scatter-adds grad_output into grad_input (zeroed plane by plane by the loop) at `indices` (flat
/// offsets within each plane); with `gate` (self's data), then zeroed where self <= 0.
template <int64_t N>
Tensor max_pool_backward_impl(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                              bool ceil_mode, const Tensor& indices, const void* gate) {
  const Geometry g = max_pool_backward_geometry<N>(grad_output, self, kernel, stride, padding,
                                                   dilation, ceil_mode, indices);
  const Tensor result = pool::result_like(self.sizes(), self);
  const Tensor ix = indices.contiguous();
  return pool::run_compute(
      grad_output, result, false, [&](ScalarType dt, const void* go, void* gi) {
        max_pool_backward_stub(IndexScatterArgs{dt, go, ix.data_ptr<int64_t>(), gi,
                                                pool::planes_of(self, N), g.in_plane(),
                                                g.out_plane(), gate});
      });
}
template <int64_t N>
Tensor max_pool_backward_kernel(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel,
                                IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                bool ceil_mode, const Tensor& indices) {
  return max_pool_backward_impl<N>(grad_output, self, kernel, stride, padding, dilation, ceil_mode,
                                   indices, nullptr);
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

// Note [Relu gradient in the max-pool backward]
// A compiled CNN's backward runs relu's gradient, threshold_backward(g, y), on the max-pool
// backward's result g, where y (the relu's result) is the pool's input: a pass over the largest
// activation that only zeroes elements. Here the scatter loop applies the same test (y <= 0 gives
// 0, so a NaN y passes its gradient) to each plane right after scattering into it, while the plane
// is in cache: the values are threshold_backward's bit for bit, without its pass over memory.
// Used by src/compile/pool_relu.cpp.
Tensor max_pool_backward_relu(int64_t dims, const Tensor& grad_output, const Tensor& self,
                              IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                              IntArrayRef dilation, bool ceil_mode, const Tensor& indices) {
  const bool direct =
      (self.scalar_type() == kFloat || self.scalar_type() == kDouble) &&
      grad_output.scalar_type() == self.scalar_type() && self.is_contiguous() &&
      self.device() == grad_output.device() &&
      !(GradMode::is_enabled() && (grad_output.requires_grad() || self.requires_grad()));
  if (!direct) {
    auto* op = dims == 1   ? &max_pool1d_with_indices_backward
               : dims == 2 ? &max_pool2d_with_indices_backward
                           : &max_pool3d_with_indices_backward;
    return threshold_backward_op().call(
        op(grad_output, self, kernel, stride, padding, dilation, ceil_mode, indices), self, 1,
        Tensor());
  }
  auto* impl = dims == 1   ? &max_pool_backward_impl<1>
               : dims == 2 ? &max_pool_backward_impl<2>
                           : &max_pool_backward_impl<3>;
  return impl(grad_output, self, kernel, stride, padding, dilation, ceil_mode, indices,
              self.const_data_ptr());
}

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
