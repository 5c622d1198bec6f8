// Padding: constant_pad_nd (composite over narrow + copy_, any number of dims, negative pads crop),
// and reflection/replication/circular padding of the last 1-3 dims with their backward ops.
// `pad` lists (left, right) pairs starting from the last dim, as torch's F.pad does. The loops
// (gathers through per-dim index maps, shared with nearest upsampling):
// backends/cpu/kernels/resample_kernels.cpp.
#include <vector>

#include "backends/cpu/kernels/resample_kernels.h"
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/resample_ops.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(index_map_gather_stub, IndexMapKernel);
BRASA_DEFINE_STUB(index_map_scatter_add_stub, IndexMapKernel);

namespace {
using pool::Geometry;

enum class PadMode { reflect, replicate, circular };

const char* mode_name(PadMode m) {
  return m == PadMode::reflect     ? "reflection_pad"
         : m == PadMode::replicate ? "replication_pad"
                                   : "circular_pad";
}

/// Source index of each output index of one dim. Circular padding (as PyTorch's) crops negative
/// pads first, then wraps around what is left.
std::vector<int64_t> pad_map(PadMode mode, int64_t in, int64_t left, int64_t out) {
  std::vector<int64_t> m(static_cast<size_t>(out));
  const int64_t crop_l = std::max<int64_t>(-left, 0),
                kept = out - std::max<int64_t>(left, 0) - std::max<int64_t>(out - in - left, 0);
  for (int64_t o = 0; o < out; ++o) {
    int64_t i = o - left;
    if (mode == PadMode::reflect) {
      if (i < 0) i = -i;
      if (i >= in) i = 2 * (in - 1) - i;
    } else if (mode == PadMode::replicate) {
      i = std::min(std::max<int64_t>(i, 0), in - 1);
    } else {
      i = o - std::max<int64_t>(left, 0);
      i = ((i % kept) + kept) % kept + crop_l;
    }
    m[static_cast<size_t>(o)] = i;
  }
  return m;
}

Geometry pad_geometry(const Tensor& self, IntArrayRef pad, PadMode mode, int64_t n,
                      const std::string& op) {
  pool::check_pool_input(self, n, op.c_str(), true);
  BRASA_CHECK(static_cast<int64_t>(pad.size()) == 2 * n, op, ": padding must have ", 2 * n,
              " elements, got ", pool::shape_str(pad));
  Geometry g;
  pool::set_in(g, self, n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = 2 - i, left = pad[2 * i], right = pad[2 * i + 1];
    if (mode == PadMode::reflect)
      BRASA_CHECK(left < g.in[j] && right < g.in[j], op,
                  ": padding size should be less than the corresponding input dimension, but got "
                  "padding (",
                  left, ", ", right, ") at dimension ", self.dim() - 1 - i, " of input ",
                  pool::shape_str(self.sizes()));
    if (mode == PadMode::circular)
      BRASA_CHECK(left <= g.in[j] && right <= g.in[j], op, ": padding (", left, ", ", right,
                  ") at dimension ", self.dim() - 1 - i, " wraps around more than once for input ",
                  pool::shape_str(self.sizes()));
    g.pad[j] = left;
    g.out[j] = g.in[j] + left + right;
    BRASA_CHECK(g.out[j] >= 1, op, ": input of shape ", pool::shape_str(self.sizes()),
                " with padding ", pool::shape_str(pad), " gives an output size ", g.out[j],
                " at dimension ", self.dim() - 1 - i);
  }
  return g;
}

/// Runs `stub` (gather or scatter-add) through the pad's index maps, dst of planes of g.out
/// (gather) or of g.in (scatter-add).
void run_padded(cpu::DispatchStub<IndexMapKernel>& stub, ScalarType dt, const void* src, void* dst,
                int64_t planes, const Geometry& g, PadMode mode) {
  std::vector<int64_t> m[3];
  for (int j = 0; j < 3; ++j) m[j] = pad_map(mode, g.in[j], g.pad[j], g.out[j]);
  stub(IndexMapArgs{dt,
                    src,
                    dst,
                    planes,
                    {g.in[0], g.in[1], g.in[2]},
                    {g.out[0], g.out[1], g.out[2]},
                    {m[0].data(), m[1].data(), m[2].data()}});
}

template <PadMode M, int64_t N>
Geometry forward_geometry(const Tensor& self, IntArrayRef pad) {
  static const std::string name = mode_name(M) + std::to_string(N) + "d";
  return pad_geometry(self, pad, M, N, name);
}

template <PadMode M, int64_t N>
Tensor pad_meta(const Tensor& self, IntArrayRef pad) {
  return pool::result_like(pool::out_shape(self, forward_geometry<M, N>(self, pad), N), self);
}

template <PadMode M, int64_t N>
Tensor pad_kernel(const Tensor& self, IntArrayRef pad) {
  const Geometry g = forward_geometry<M, N>(self, pad);
  const Tensor result = pool::result_like(pool::out_shape(self, g, N), self);
  return pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    run_padded(index_map_gather_stub, dt, in, y, pool::planes_of(self, N), g, M);
  });
}

// The checked geometry of the backward.
template <PadMode M, int64_t N>
Geometry backward_geometry(const Tensor& grad_output, const Tensor& self, IntArrayRef pad) {
  static const std::string name = mode_name(M) + std::to_string(N) + "d_backward";
  pool::check_floating(grad_output, name.c_str());
  const Geometry g = pad_geometry(self, pad, M, N, name);
  const DimVector shape = pool::out_shape(self, g, N);
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(shape), name, ": expected grad_output of shape ",
              pool::shape_str(shape), ", got ", pool::shape_str(grad_output.sizes()));
  return g;
}

template <PadMode M, int64_t N>
Tensor pad_backward_meta(const Tensor& grad_output, const Tensor& self, IntArrayRef pad) {
  backward_geometry<M, N>(grad_output, self, pad);
  return pool::result_like(self.sizes(), self);
}

template <PadMode M, int64_t N>
Tensor pad_backward_kernel(const Tensor& grad_output, const Tensor& self, IntArrayRef pad) {
  const Geometry g = backward_geometry<M, N>(grad_output, self, pad);
  const Tensor result = pool::result_like(self.sizes(), self);
  return pool::run_compute(grad_output, result, true, [&](ScalarType dt, const void* go, void* gi) {
    run_padded(index_map_scatter_add_stub, dt, go, gi, pool::planes_of(self, N), g, M);
  });
}

}  // namespace

BRASA_DEFINE_OP(reflection_pad1d_op)
BRASA_DEFINE_OP(reflection_pad2d_op)
BRASA_DEFINE_OP(reflection_pad3d_op)
BRASA_DEFINE_OP(reflection_pad1d_backward_op)
BRASA_DEFINE_OP(reflection_pad2d_backward_op)
BRASA_DEFINE_OP(reflection_pad3d_backward_op)
BRASA_DEFINE_OP(replication_pad1d_op)
BRASA_DEFINE_OP(replication_pad2d_op)
BRASA_DEFINE_OP(replication_pad3d_op)
BRASA_DEFINE_OP(replication_pad1d_backward_op)
BRASA_DEFINE_OP(replication_pad2d_backward_op)
BRASA_DEFINE_OP(replication_pad3d_backward_op)
BRASA_DEFINE_OP(circular_pad1d_op)
BRASA_DEFINE_OP(circular_pad2d_op)
BRASA_DEFINE_OP(circular_pad3d_op)
BRASA_DEFINE_OP(circular_pad1d_backward_op)
BRASA_DEFINE_OP(circular_pad2d_backward_op)
BRASA_DEFINE_OP(circular_pad3d_backward_op)

BRASA_REGISTER_KERNEL(reflection_pad1d_op, (pad_kernel<PadMode::reflect, 1>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad1d_op, (pad_meta<PadMode::reflect, 1>), Meta)
BRASA_REGISTER_KERNEL(reflection_pad2d_op, (pad_kernel<PadMode::reflect, 2>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad2d_op, (pad_meta<PadMode::reflect, 2>), Meta)
BRASA_REGISTER_KERNEL(reflection_pad3d_op, (pad_kernel<PadMode::reflect, 3>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad3d_op, (pad_meta<PadMode::reflect, 3>), Meta)
BRASA_REGISTER_KERNEL(reflection_pad1d_backward_op, (pad_backward_kernel<PadMode::reflect, 1>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad1d_backward_op, (pad_backward_meta<PadMode::reflect, 1>), Meta)
BRASA_REGISTER_KERNEL(reflection_pad2d_backward_op, (pad_backward_kernel<PadMode::reflect, 2>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad2d_backward_op, (pad_backward_meta<PadMode::reflect, 2>), Meta)
BRASA_REGISTER_KERNEL(reflection_pad3d_backward_op, (pad_backward_kernel<PadMode::reflect, 3>), CPU)
BRASA_REGISTER_KERNEL(reflection_pad3d_backward_op, (pad_backward_meta<PadMode::reflect, 3>), Meta)
BRASA_REGISTER_KERNEL(replication_pad1d_op, (pad_kernel<PadMode::replicate, 1>), CPU)
BRASA_REGISTER_KERNEL(replication_pad1d_op, (pad_meta<PadMode::replicate, 1>), Meta)
BRASA_REGISTER_KERNEL(replication_pad2d_op, (pad_kernel<PadMode::replicate, 2>), CPU)
BRASA_REGISTER_KERNEL(replication_pad2d_op, (pad_meta<PadMode::replicate, 2>), Meta)
BRASA_REGISTER_KERNEL(replication_pad3d_op, (pad_kernel<PadMode::replicate, 3>), CPU)
BRASA_REGISTER_KERNEL(replication_pad3d_op, (pad_meta<PadMode::replicate, 3>), Meta)
BRASA_REGISTER_KERNEL(replication_pad1d_backward_op, (pad_backward_kernel<PadMode::replicate, 1>),
                      CPU)
BRASA_REGISTER_KERNEL(replication_pad1d_backward_op, (pad_backward_meta<PadMode::replicate, 1>),
                      Meta)
BRASA_REGISTER_KERNEL(replication_pad2d_backward_op, (pad_backward_kernel<PadMode::replicate, 2>),
                      CPU)
BRASA_REGISTER_KERNEL(replication_pad2d_backward_op, (pad_backward_meta<PadMode::replicate, 2>),
                      Meta)
BRASA_REGISTER_KERNEL(replication_pad3d_backward_op, (pad_backward_kernel<PadMode::replicate, 3>),
                      CPU)
BRASA_REGISTER_KERNEL(replication_pad3d_backward_op, (pad_backward_meta<PadMode::replicate, 3>),
                      Meta)
BRASA_REGISTER_KERNEL(circular_pad1d_op, (pad_kernel<PadMode::circular, 1>), CPU)
BRASA_REGISTER_KERNEL(circular_pad1d_op, (pad_meta<PadMode::circular, 1>), Meta)
BRASA_REGISTER_KERNEL(circular_pad2d_op, (pad_kernel<PadMode::circular, 2>), CPU)
BRASA_REGISTER_KERNEL(circular_pad2d_op, (pad_meta<PadMode::circular, 2>), Meta)
BRASA_REGISTER_KERNEL(circular_pad3d_op, (pad_kernel<PadMode::circular, 3>), CPU)
BRASA_REGISTER_KERNEL(circular_pad3d_op, (pad_meta<PadMode::circular, 3>), Meta)
BRASA_REGISTER_KERNEL(circular_pad1d_backward_op, (pad_backward_kernel<PadMode::circular, 1>), CPU)
BRASA_REGISTER_KERNEL(circular_pad1d_backward_op, (pad_backward_meta<PadMode::circular, 1>), Meta)
BRASA_REGISTER_KERNEL(circular_pad2d_backward_op, (pad_backward_kernel<PadMode::circular, 2>), CPU)
BRASA_REGISTER_KERNEL(circular_pad2d_backward_op, (pad_backward_meta<PadMode::circular, 2>), Meta)
BRASA_REGISTER_KERNEL(circular_pad3d_backward_op, (pad_backward_kernel<PadMode::circular, 3>), CPU)
BRASA_REGISTER_KERNEL(circular_pad3d_backward_op, (pad_backward_meta<PadMode::circular, 3>), Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding) {
  return ops::reflection_pad1d_op().call(self, padding);
}
Tensor reflection_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return ops::reflection_pad1d_backward_op().call(grad_output, self, padding);
}
Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding) {
  return ops::reflection_pad2d_op().call(self, padding);
}
Tensor reflection_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return ops::reflection_pad2d_backward_op().call(grad_output, self, padding);
}
Tensor reflection_pad3d(const Tensor& self, IntArrayRef padding) {
  return ops::reflection_pad3d_op().call(self, padding);
}
Tensor reflection_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return ops::reflection_pad3d_backward_op().call(grad_output, self, padding);
}
Tensor replication_pad1d(const Tensor& self, IntArrayRef padding) {
  return ops::replication_pad1d_op().call(self, padding);
}
Tensor replication_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return ops::replication_pad1d_backward_op().call(grad_output, self, padding);
}
Tensor replication_pad2d(const Tensor& self, IntArrayRef padding) {
  return ops::replication_pad2d_op().call(self, padding);
}
Tensor replication_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return ops::replication_pad2d_backward_op().call(grad_output, self, padding);
}
Tensor replication_pad3d(const Tensor& self, IntArrayRef padding) {
  return ops::replication_pad3d_op().call(self, padding);
}
Tensor replication_pad3d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return ops::replication_pad3d_backward_op().call(grad_output, self, padding);
}
Tensor circular_pad1d(const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad1d_op().call(self, padding);
}
Tensor circular_pad1d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad1d_backward_op().call(grad_output, self, padding);
}
Tensor circular_pad2d(const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad2d_op().call(self, padding);
}
Tensor circular_pad2d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad2d_backward_op().call(grad_output, self, padding);
}
Tensor circular_pad3d(const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad3d_op().call(self, padding);
}
Tensor circular_pad3d_backward(const Tensor& grad_output, const Tensor& self, IntArrayRef padding) {
  return ops::circular_pad3d_backward_op().call(grad_output, self, padding);
}

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  BRASA_CHECK(self.defined(), "constant_pad_nd: got an undefined tensor");
  BRASA_CHECK(pad.size() % 2 == 0, "constant_pad_nd: padding length must be divisible by 2, got ",
              ops::pool::shape_str(pad));
  const int64_t n = static_cast<int64_t>(pad.size()) / 2;
  BRASA_CHECK(n <= self.dim(), "constant_pad_nd: padding length ", pad.size(),
              " is too large for an input of shape ", ops::pool::shape_str(self.sizes()));
  DimVector shape(self.sizes());
  Tensor src = self;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t dim = self.dim() - 1 - i, left = pad[2 * i], right = pad[2 * i + 1];
    shape[dim] += left + right;
    BRASA_CHECK(shape[dim] >= 0, "constant_pad_nd: input of shape ",
                ops::pool::shape_str(self.sizes()), " with padding ", ops::pool::shape_str(pad),
                " gives a negative size ", shape[dim], " at dimension ", dim);
    const int64_t crop_l = std::max<int64_t>(-left, 0), crop_r = std::max<int64_t>(-right, 0);
    src = src.narrow(dim, crop_l, std::max<int64_t>(self.size(dim) - crop_l - crop_r, 0));
  }
  Tensor out = full(shape, value, TensorOptions().dtype(self.scalar_type()).device(self.device()));
  Tensor dst = out;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t dim = self.dim() - 1 - i;
    dst = dst.narrow(dim, std::max<int64_t>(pad[2 * i], 0), src.size(dim));
  }
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  if (dst.numel() > 0) dst.copy_(src);
  return out;
}

}  // namespace brasa
