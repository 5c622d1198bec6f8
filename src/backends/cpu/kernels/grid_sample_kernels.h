#pragma once
// The kernel interface of grid_sampler_2d / grid_sampler_3d (src/ops/resample/grid_sample.cpp):
// sampling planes of an input at grid points, and the gradients of that with respect to the
// input and the grid. Tensors are contiguous, of the compute dtype (Float or Double); the ops
// check shapes and modes and convert to and from the compute dtype.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"

namespace brasa::ops {

/// libtorch's GridSamplerInterpolation and GridSamplerPadding codes.
enum GridSampleMode : int64_t { kGridBilinear = 0, kGridNearest = 1, kGridBicubic = 2 };
enum GridSamplePadding : int64_t { kGridZeros = 0, kGridBorder = 1, kGridReflection = 2 };

/// input [n, c, in[0], in[1], in[2]] (in[0] = 1 for 2-d), grid [n, out[0], out[1], out[2], dims]
/// holding (x, y[, z]) in [-1, 1] (x along in[2]), output [n, c, out[0], out[1], out[2]].
/// Forward: writes output. Backward: adds into grad_input (zeroed by the caller) and writes
/// grad_grid from grad_output (output's shape). Bicubic is 2-d only.
struct GridSampleArgs {
  ScalarType dtype;
  int64_t dims;
  int64_t mode, padding;
  bool align_corners;
  int64_t n, c;
  int64_t in[3], out[3];
  const void* input;
  const void* grid;
  void* output;
  const void* grad_output;
  void* grad_input;
  void* grad_grid;
};
using GridSampleKernel = void (*)(const GridSampleArgs& a);

BRASA_DECLARE_STUB(grid_sample_stub, GridSampleKernel);
BRASA_DECLARE_STUB(grid_sample_backward_stub, GridSampleKernel);

}  // namespace brasa::ops
