// grid_sampler_2d / grid_sampler_3d and their backward ops: the shape, dtype and mode checks (the
// meta functions) and the conversion to the compute dtype; the loops are
// backends/cpu/kernels/grid_sample_kernels.cpp.

#include <tuple>

#include "backends/cpu/kernels/grid_sample_kernels.h"
#include "brasa/dispatch/dispatcher.h"
#include "ops/pool/pool_common.h"
#include "ops/resample/grid_sample_ops.h"

namespace brasa::ops {
BRASA_DEFINE_STUB(grid_sample_stub, GridSampleKernel);
BRASA_DEFINE_STUB(grid_sample_backward_stub, GridSampleKernel);

BRASA_DEFINE_OP(grid_sampler_2d_op)
BRASA_DEFINE_OP(grid_sampler_3d_op)
BRASA_DEFINE_OP(grid_sampler_2d_backward_op)
BRASA_DEFINE_OP(grid_sampler_3d_backward_op)

namespace {

using pool::shape_str;

const char* op_name(int64_t dims, bool backward) {
  if (dims == 2) return backward ? "grid_sampler_2d_backward" : "grid_sampler_2d";
  return backward ? "grid_sampler_3d_backward" : "grid_sampler_3d";
}

/// The arguments of the loops for input [N, C, *in] and grid [N, *out, dims], after the checks
/// every form shares; dtype, data pointers and gradients are filled by the callers.
GridSampleArgs check(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                     bool align_corners, int64_t dims, bool backward) {
  const char* op = op_name(dims, backward);
  BRASA_CHECK(input.defined() && grid.defined(), op, ": input and grid must be defined");
  BRASA_CHECK_TYPE(
      is_floating_type(input.scalar_type()) && grid.scalar_type() == input.scalar_type(), op,
      ": expected floating input and grid of the same dtype, got ", input.scalar_type(), " and ",
      grid.scalar_type());
  BRASA_CHECK(input.device() == grid.device(), op,
              ": expected input and grid on the same device, got ", input.device(), " and ",
              grid.device());
  BRASA_CHECK(input.dim() == dims + 2 && grid.dim() == dims + 2, op, ": expected a ", dims + 2,
              "-d input [N, C, *", dims, " spatial dims] and a ", dims + 2, "-d grid [N, *out, ",
              dims, "], got input ", shape_str(input.sizes()), " and grid ",
              shape_str(grid.sizes()));
  BRASA_CHECK(grid.size(0) == input.size(0) && grid.size(-1) == dims, op, ": expected grid [",
              input.size(0), ", *out, ", dims, "] for input ", shape_str(input.sizes()), ", got ",
              shape_str(grid.sizes()));
  for (int64_t d = 2; d < input.dim(); ++d)
    BRASA_CHECK(input.size(d) > 0, op, ": expected input with non-empty spatial dims, got ",
                shape_str(input.sizes()));
  BRASA_CHECK(mode == kGridBilinear || mode == kGridNearest || (mode == kGridBicubic && dims == 2),
              op, ": unsupported interpolation mode ", mode, " (0 bilinear, 1 nearest",
              dims == 2 ? ", 2 bicubic" : "", ")");
  BRASA_CHECK(padding == kGridZeros || padding == kGridBorder || padding == kGridReflection, op,
              ": unsupported padding mode ", padding, " (0 zeros, 1 border, 2 reflection)");
  GridSampleArgs a{};
  a.dims = dims;
  a.mode = mode;
  a.padding = padding;
  a.align_corners = align_corners;
  a.n = input.size(0);
  a.c = input.size(1);
  for (int64_t k = 0; k < 3; ++k) {
    const int64_t d = k - (3 - dims);  // spatial dim k of the 3 padded ones, -1 when absent
    a.in[k] = d < 0 ? 1 : input.size(2 + d);
    a.out[k] = d < 0 ? 1 : grid.size(1 + d);
  }
  return a;
}

DimVector output_shape(const Tensor& input, const Tensor& grid, int64_t dims) {
  DimVector s{input.size(0), input.size(1)};
  for (int64_t d = 0; d < dims; ++d) s.push_back(grid.size(1 + d));
  return s;
}

template <int64_t Dims, bool Compute>
Tensor forward(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
               bool align_corners) {
  GridSampleArgs a = check(input, grid, mode, padding, align_corners, Dims, false);
  Tensor result = pool::result_like(output_shape(input, grid, Dims), input);
  if constexpr (!Compute) {
    return result;
  } else {
    if (result.numel() == 0) return result;
    const Tensor x = pool::compute_input(input), g = pool::compute_input(grid);
    Tensor out = pool::compute_output(result);
    a.dtype = x.scalar_type();
    a.input = x.const_data_ptr();
    a.grid = g.const_data_ptr();
    a.output = out.data_ptr();
    grid_sample_stub(a);
    return pool::finish(out, result);
  }
}

template <int64_t Dims, bool Compute>
std::tuple<Tensor, Tensor> backward(const Tensor& grad_output, const Tensor& input,
                                    const Tensor& grid, int64_t mode, int64_t padding,
                                    bool align_corners) {
  GridSampleArgs a = check(input, grid, mode, padding, align_corners, Dims, true);
  const char* op = op_name(Dims, true);
  const DimVector shape = output_shape(input, grid, Dims);
  BRASA_CHECK(grad_output.defined() && grad_output.sizes() == IntArrayRef(shape), op,
              ": expected grad_output of shape ", shape_str(shape), ", got ",
              grad_output.defined() ? shape_str(grad_output.sizes()) : std::string("undefined"));
  Tensor grad_input = pool::result_like(input.sizes(), input);
  Tensor grad_grid = pool::result_like(grid.sizes(), grid);
  if constexpr (Compute) {
    Tensor gi = pool::compute_output(grad_input), gg = pool::compute_output(grad_grid);
    gi.zero_();
    gg.zero_();
    if (grad_output.numel() > 0) {
      const Tensor go = pool::compute_input(grad_output.to(input.scalar_type()));
      const Tensor x = pool::compute_input(input), g = pool::compute_input(grid);
      a.dtype = x.scalar_type();
      a.input = x.const_data_ptr();
      a.grid = g.const_data_ptr();
      a.grad_output = go.const_data_ptr();
      a.grad_input = gi.data_ptr();
      a.grad_grid = gg.data_ptr();
      grid_sample_backward_stub(a);
    }
    pool::finish(gi, grad_input);
    pool::finish(gg, grad_grid);
  }
  return {grad_input, grad_grid};
}

// The registered forms: CPU computes, Meta stops after the checks and the result's geometry.
#define BRASA_GRID_FORWARD(name, dims, compute)                                                 \
  Tensor name(const Tensor& input, const Tensor& grid, int64_t mode, int64_t pad, bool align) { \
    return forward<dims, compute>(input, grid, mode, pad, align);                               \
  }
#define BRASA_GRID_BACKWARD(name, dims, compute)                                             \
  std::tuple<Tensor, Tensor> name(const Tensor& go, const Tensor& input, const Tensor& grid, \
                                  int64_t mode, int64_t pad, bool align) {                   \
    return backward<dims, compute>(go, input, grid, mode, pad, align);                       \
  }
BRASA_GRID_FORWARD(cpu_2d, 2, true)
BRASA_GRID_FORWARD(meta_2d, 2, false)
BRASA_GRID_FORWARD(cpu_3d, 3, true)
BRASA_GRID_FORWARD(meta_3d, 3, false)
BRASA_GRID_BACKWARD(cpu_2d_backward, 2, true)
BRASA_GRID_BACKWARD(meta_2d_backward, 2, false)
BRASA_GRID_BACKWARD(cpu_3d_backward, 3, true)
BRASA_GRID_BACKWARD(meta_3d_backward, 3, false)
#undef BRASA_GRID_FORWARD
#undef BRASA_GRID_BACKWARD

}  // namespace

BRASA_REGISTER_KERNEL(grid_sampler_2d_op, cpu_2d, CPU)
BRASA_REGISTER_KERNEL(grid_sampler_2d_op, meta_2d, Meta)
BRASA_REGISTER_KERNEL(grid_sampler_3d_op, cpu_3d, CPU)
BRASA_REGISTER_KERNEL(grid_sampler_3d_op, meta_3d, Meta)
BRASA_REGISTER_KERNEL(grid_sampler_2d_backward_op, cpu_2d_backward, CPU)
BRASA_REGISTER_KERNEL(grid_sampler_2d_backward_op, meta_2d_backward, Meta)
BRASA_REGISTER_KERNEL(grid_sampler_3d_backward_op, cpu_3d_backward, CPU)
BRASA_REGISTER_KERNEL(grid_sampler_3d_backward_op, meta_3d_backward, Meta)

}  // namespace brasa::ops
