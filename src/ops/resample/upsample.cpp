// upsample_nearest{1,2,3}d, upsample_bilinear2d and their backward ops over [N, C, *spatial].
// A given scale s maps output index o to source o / s; without one the map is in_size / out_size
// (align_corners: (in - 1) / (out - 1), sampling corner pixel centres). The maps and taps are
// computed here, the loops are backends/cpu/kernels/resample_kernels.cpp.
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "backends/cpu/kernels/resample_kernels.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"
#include "ops/pool/resample_ops.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(bilinear_stub, BilinearKernel);
BRASA_DEFINE_STUB(bilinear_backward_stub, BilinearKernel);

namespace {
using pool::Geometry;
using Scales = std::array<std::optional<double>, 3>;

Geometry upsample_geometry(IntArrayRef input_size, IntArrayRef output_size, int64_t spatial,
                           const char* op) {
  BRASA_CHECK(static_cast<int64_t>(output_size.size()) == spatial, op, ": output_size must have ",
              spatial, " elements, got ", pool::shape_str(output_size));
  BRASA_CHECK(static_cast<int64_t>(input_size.size()) == spatial + 2, op, ": expected a ",
              spatial + 2, "-D input [N, C, *], got shape ", pool::shape_str(input_size));
  Geometry g;
  bool ok = input_size[1] > 0;
  for (int64_t i = 0; i < spatial; ++i) {
    g.in[3 - spatial + i] = input_size[static_cast<size_t>(2 + i)];
    g.out[3 - spatial + i] = output_size[i];
    ok = ok && input_size[static_cast<size_t>(2 + i)] > 0 && output_size[i] > 0;
  }
  BRASA_CHECK(ok, op,
              ": input and output sizes should be greater than 0 (batch excepted), got input ",
              pool::shape_str(input_size), " and output_size ", pool::shape_str(output_size));
  return g;
}

/// Source coordinate scale of one dim (PyTorch's area_pixel_compute_scale).
double coordinate_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> s) {
  if (align_corners)
    return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  return s && *s > 0 ? 1.0 / *s : static_cast<double>(in) / static_cast<double>(out);
}

/// Source index of every output index of one dim, for nearest.
std::vector<int64_t> nearest_map(int64_t in, int64_t out, std::optional<double> s) {
  const float scale = static_cast<float>(coordinate_scale(in, out, false, s));
  std::vector<int64_t> m(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o)
    m[static_cast<size_t>(o)] =
        std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * scale)), in - 1);
  return m;
}

/// Runs `stub` (gather or scatter-add) through the nearest-source maps, dst of planes of g.out
/// (gather) or of g.in (scatter-add).
void run_nearest(cpu::DispatchStub<IndexMapKernel>& stub, ScalarType dt, const void* src, void* dst,
                 int64_t planes, const Geometry& g, const Scales& scales) {
  std::array<std::vector<int64_t>, 3> m;
  for (int j = 0; j < 3; ++j) m[j] = nearest_map(g.in[j], g.out[j], scales[j]);
  stub(IndexMapArgs{dt,
                    src,
                    dst,
                    planes,
                    {g.in[0], g.in[1], g.in[2]},
                    {g.out[0], g.out[1], g.out[2]},
                    {m[0].data(), m[1].data(), m[2].data()}});
}

Scales scales_of(int64_t spatial, std::optional<double> a, std::optional<double> b,
                 std::optional<double> c) {
  Scales s;
  const std::optional<double> given[3] = {a, b, c};
  for (int64_t i = 0; i < spatial; ++i) s[3 - spatial + i] = given[i];
  return s;
}

// The shape rule of upsampling forward: the checked geometry and the empty result.
std::pair<Geometry, Tensor> forward_rule(const Tensor& self, IntArrayRef output_size,
                                         int64_t spatial, const char* op) {
  pool::check_floating(self, op);
  const Geometry g = upsample_geometry(self.sizes(), output_size, spatial, op);
  return {g, pool::result_like(pool::out_shape(self, g, spatial), self)};
}

// The shape rule of upsampling backward: the checked geometry and the empty input gradient.
std::pair<Geometry, Tensor> backward_rule(const Tensor& grad_output, IntArrayRef output_size,
                                          IntArrayRef input_size, int64_t spatial, const char* op) {
  pool::check_floating(grad_output, op);
  const Geometry g = upsample_geometry(input_size, output_size, spatial, op);
  DimVector expect(input_size.slice(0, 2));
  for (int64_t s : output_size) expect.push_back(s);
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(expect), op, ": expected grad_output of shape ",
              pool::shape_str(expect), ", got ", pool::shape_str(grad_output.sizes()));
  return {g, pool::result_like(input_size, grad_output)};
}

Tensor nearest_forward_meta(const Tensor& self, IntArrayRef output_size, const Scales&,
                            int64_t spatial, const char* op) {
  return forward_rule(self, output_size, spatial, op).second;
}

Tensor nearest_forward(const Tensor& self, IntArrayRef output_size, const Scales& scales,
                       int64_t spatial, const char* op) {
  const auto [g, result] = forward_rule(self, output_size, spatial, op);
  return pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    run_nearest(index_map_gather_stub, dt, in, y, pool::planes_of(self, spatial), g, scales);
  });
}

Tensor nearest_backward_meta(const Tensor& grad_output, IntArrayRef output_size,
                             IntArrayRef input_size, const Scales&, int64_t spatial,
                             const char* op) {
  return backward_rule(grad_output, output_size, input_size, spatial, op).second;
}

Tensor nearest_backward(const Tensor& grad_output, IntArrayRef output_size, IntArrayRef input_size,
                        const Scales& scales, int64_t spatial, const char* op) {
  const auto [g, result] = backward_rule(grad_output, output_size, input_size, spatial, op);
  return pool::run_compute(grad_output, result, true, [&](ScalarType dt, const void* go, void* gi) {
    run_nearest(index_map_scatter_add_stub, dt, go, gi, input_size[0] * input_size[1], g, scales);
  });
}

/// Linear interpolation taps of one dim: out index -> (i0, i1, w0, w1).
struct Taps {
  std::vector<int64_t> i0, i1;
  std::vector<double> w0, w1;
};
Taps linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> s) {
  const double scale = coordinate_scale(in, out, align_corners, s);
  Taps t;
  for (int64_t o = 0; o < out; ++o) {
    const double src = align_corners ? scale * static_cast<double>(o)
                                     : std::max(scale * (static_cast<double>(o) + 0.5) - 0.5, 0.0);
    const int64_t i0 = std::min(static_cast<int64_t>(src), in - 1);
    const double l1 = std::min(src - static_cast<double>(i0), 1.0);
    t.i0.push_back(i0);
    t.i1.push_back(i0 + (i0 < in - 1 ? 1 : 0));
    t.w0.push_back(1.0 - l1);
    t.w1.push_back(l1);
  }
  return t;
}

/// Runs `stub` (forward or backward) with the bilinear taps of g's last two dims.
void run_bilinear(cpu::DispatchStub<BilinearKernel>& stub, ScalarType dt, const void* src,
                  void* dst, int64_t planes, const Geometry& g, bool align_corners,
                  const Scales& s) {
  const Taps th = linear_taps(g.in[1], g.out[1], align_corners, s[1]);
  const Taps tw = linear_taps(g.in[2], g.out[2], align_corners, s[2]);
  stub(BilinearArgs{dt, src, dst, planes, g.in[1], g.in[2], g.out[1], g.out[2], th.i0.data(),
                    th.i1.data(), tw.i0.data(), tw.i1.data(), th.w0.data(), th.w1.data(),
                    tw.w0.data(), tw.w1.data()});
}

Tensor bilinear_meta(const Tensor& self, IntArrayRef output_size, bool, std::optional<double>,
                     std::optional<double>) {
  return forward_rule(self, output_size, 2, "upsample_bilinear2d").second;
}

Tensor bilinear_kernel(const Tensor& self, IntArrayRef output_size, bool align_corners,
                       std::optional<double> scales_h, std::optional<double> scales_w) {
  const auto [g, result] = forward_rule(self, output_size, 2, "upsample_bilinear2d");
  return pool::run_compute(self, result, false, [&](ScalarType dt, const void* in, void* y) {
    run_bilinear(bilinear_stub, dt, in, y, pool::planes_of(self, 2), g, align_corners,
                 scales_of(2, scales_h, scales_w, std::nullopt));
  });
}

Tensor bilinear_backward_meta(const Tensor& grad_output, IntArrayRef output_size,
                              IntArrayRef input_size, bool, std::optional<double>,
                              std::optional<double>) {
  return backward_rule(grad_output, output_size, input_size, 2, "upsample_bilinear2d_backward")
      .second;
}

Tensor bilinear_backward_kernel(const Tensor& grad_output, IntArrayRef output_size,
                                IntArrayRef input_size, bool align_corners,
                                std::optional<double> scales_h, std::optional<double> scales_w) {
  const auto [g, result] =
      backward_rule(grad_output, output_size, input_size, 2, "upsample_bilinear2d_backward");
  return pool::run_compute(grad_output, result, true, [&](ScalarType dt, const void* go, void* gi) {
    run_bilinear(bilinear_backward_stub, dt, go, gi, input_size[0] * input_size[1], g,
                 align_corners, scales_of(2, scales_h, scales_w, std::nullopt));
  });
}

// The nearest ops' kernels are templates over the shared forward/backward: nearest_forward (CPU)
// or nearest_forward_meta (Meta), and likewise for the backward.
using NearestForward = decltype(&nearest_forward);
using NearestBackward = decltype(&nearest_backward);

template <NearestForward run>
Tensor nearest1d_kernel(const Tensor& self, IntArrayRef output_size, std::optional<double> s) {
  return run(self, output_size, scales_of(1, s, {}, {}), 1, "upsample_nearest1d");
}
template <NearestForward run>
Tensor nearest2d_kernel(const Tensor& self, IntArrayRef output_size, std::optional<double> h,
                        std::optional<double> w) {
  return run(self, output_size, scales_of(2, h, w, {}), 2, "upsample_nearest2d");
}
template <NearestForward run>
Tensor nearest3d_kernel(const Tensor& self, IntArrayRef output_size, std::optional<double> d,
                        std::optional<double> h, std::optional<double> w) {
  return run(self, output_size, scales_of(3, d, h, w), 3, "upsample_nearest3d");
}
template <NearestBackward run>
Tensor nearest1d_backward_kernel(const Tensor& g, IntArrayRef output_size, IntArrayRef input_size,
                                 std::optional<double> s) {
  return run(g, output_size, input_size, scales_of(1, s, {}, {}), 1, "upsample_nearest1d_backward");
}
template <NearestBackward run>
Tensor nearest2d_backward_kernel(const Tensor& g, IntArrayRef output_size, IntArrayRef input_size,
                                 std::optional<double> h, std::optional<double> w) {
  return run(g, output_size, input_size, scales_of(2, h, w, {}), 2, "upsample_nearest2d_backward");
}
template <NearestBackward run>
Tensor nearest3d_backward_kernel(const Tensor& g, IntArrayRef output_size, IntArrayRef input_size,
                                 std::optional<double> d, std::optional<double> h,
                                 std::optional<double> w) {
  return run(g, output_size, input_size, scales_of(3, d, h, w), 3, "upsample_nearest3d_backward");
}

}  // namespace

using OptD = std::optional<double>;
BRASA_DEFINE_OP(upsample_nearest1d_op)
BRASA_REGISTER_KERNEL(upsample_nearest1d_op, nearest1d_kernel<nearest_forward>, CPU)
BRASA_REGISTER_KERNEL(upsample_nearest1d_op, nearest1d_kernel<nearest_forward_meta>, Meta)
BRASA_DEFINE_OP(upsample_nearest2d_op)
BRASA_REGISTER_KERNEL(upsample_nearest2d_op, nearest2d_kernel<nearest_forward>, CPU)
BRASA_REGISTER_KERNEL(upsample_nearest2d_op, nearest2d_kernel<nearest_forward_meta>, Meta)
BRASA_DEFINE_OP(upsample_nearest3d_op)
BRASA_REGISTER_KERNEL(upsample_nearest3d_op, nearest3d_kernel<nearest_forward>, CPU)
BRASA_REGISTER_KERNEL(upsample_nearest3d_op, nearest3d_kernel<nearest_forward_meta>, Meta)
BRASA_DEFINE_OP(upsample_nearest1d_backward_op)
BRASA_REGISTER_KERNEL(upsample_nearest1d_backward_op, nearest1d_backward_kernel<nearest_backward>,
                      CPU)
BRASA_REGISTER_KERNEL(upsample_nearest1d_backward_op,
                      nearest1d_backward_kernel<nearest_backward_meta>, Meta)
BRASA_DEFINE_OP(upsample_nearest2d_backward_op)
BRASA_REGISTER_KERNEL(upsample_nearest2d_backward_op, nearest2d_backward_kernel<nearest_backward>,
                      CPU)
BRASA_REGISTER_KERNEL(upsample_nearest2d_backward_op,
                      nearest2d_backward_kernel<nearest_backward_meta>, Meta)
BRASA_DEFINE_OP(upsample_nearest3d_backward_op)
BRASA_REGISTER_KERNEL(upsample_nearest3d_backward_op, nearest3d_backward_kernel<nearest_backward>,
                      CPU)
BRASA_REGISTER_KERNEL(upsample_nearest3d_backward_op,
                      nearest3d_backward_kernel<nearest_backward_meta>, Meta)
BRASA_DEFINE_OP(upsample_bilinear2d_op)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_op, bilinear_kernel, CPU)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_op, bilinear_meta, Meta)
BRASA_DEFINE_OP(upsample_bilinear2d_backward_op)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_backward_op, bilinear_backward_kernel, CPU)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_backward_op, bilinear_backward_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
using OptD = std::optional<double>;

Tensor upsample_nearest1d(const Tensor& self, IntArrayRef output_size, OptD scales) {
  return ops::upsample_nearest1d_op().call(self, output_size, scales);
}
Tensor upsample_nearest2d(const Tensor& self, IntArrayRef output_size, OptD scales_h,
                          OptD scales_w) {
  return ops::upsample_nearest2d_op().call(self, output_size, scales_h, scales_w);
}
Tensor upsample_nearest3d(const Tensor& self, IntArrayRef output_size, OptD scales_d, OptD scales_h,
                          OptD scales_w) {
  return ops::upsample_nearest3d_op().call(self, output_size, scales_d, scales_h, scales_w);
}
Tensor upsample_nearest1d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, OptD scales) {
  return ops::upsample_nearest1d_backward_op().call(grad_output, output_size, input_size, scales);
}
Tensor upsample_nearest2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, OptD scales_h, OptD scales_w) {
  return ops::upsample_nearest2d_backward_op().call(grad_output, output_size, input_size, scales_h,
                                                    scales_w);
}
Tensor upsample_nearest3d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                   IntArrayRef input_size, OptD scales_d, OptD scales_h,
                                   OptD scales_w) {
  return ops::upsample_nearest3d_backward_op().call(grad_output, output_size, input_size, scales_d,
                                                    scales_h, scales_w);
}
Tensor upsample_bilinear2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                           OptD scales_h, OptD scales_w) {
  return ops::upsample_bilinear2d_op().call(self, output_size, align_corners, scales_h, scales_w);
}
Tensor upsample_bilinear2d_backward(const Tensor& grad_output, IntArrayRef output_size,
                                    IntArrayRef input_size, bool align_corners, OptD scales_h,
                                    OptD scales_w) {
  return ops::upsample_bilinear2d_backward_op().call(grad_output, output_size, input_size,
                                                     align_corners, scales_h, scales_w);
}

}  // namespace brasa
