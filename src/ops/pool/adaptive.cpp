// adaptive_avg_pool{1,2,3}d, adaptive_max_pool{1,2,3}d and their backward ops. Output cell o of
// an input dim of size n spans [floor(o * n / out), ceil((o + 1) * n / out)). Loops:
// backends/cpu/kernels/pool_kernels.cpp.
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
  return pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    adaptive_avg_pool_stub(PoolArgs{dt, in, y, nullptr, pool::planes_of(self, N), g, false, 0});
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
  return pool::run_compute(grad_output, result, true, [&](ScalarType dt, const void* go, void* gi) {
    adaptive_avg_pool_backward_stub(
        PoolArgs{dt, go, gi, nullptr, pool::planes_of(self, N), g, false, 0});
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
  int64_t* ix = indices.data_ptr<int64_t>();
  pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    adaptive_max_pool_stub(PoolArgs{dt, in, y, ix, pool::planes_of(self, N), g, false, 0});
  });
  return {result, indices};
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
  const Tensor ix = indices.contiguous();
  int64_t in_plane = 1, out_plane = 1;
  for (int64_t i = 0; i < N; ++i) {
    in_plane *= self.size(self.dim() - 1 - i);
    out_plane *= grad_output.size(grad_output.dim() - 1 - i);
  }
  return pool::run_compute(
      grad_output, result, false, [&](ScalarType dt, const void* go, void* gi) {
        max_pool_backward_stub(IndexScatterArgs{dt, go, ix.data_ptr<int64_t>(), gi,
                                                pool::planes_of(self, N), in_plane, out_plane});
      });
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
