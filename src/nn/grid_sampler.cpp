// at::grid_sampler_2d / 3d / grid_sampler: the dispatched grid_sampler ops
// (src/ops/resample/grid_sample.cpp, with their derivatives for input and grid).

#include "brasa/core/error.h"
#include "brasa/nn/resample_functions.h"
#include "ops/resample/grid_sample_ops.h"

namespace brasa {

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return ops::grid_sampler_2d_op().call(input, grid, interpolation_mode, padding_mode,
                                        align_corners);
}

Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return ops::grid_sampler_3d_op().call(input, grid, interpolation_mode, padding_mode,
                                        align_corners);
}

Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  BRASA_CHECK(input.defined() && (input.dim() == 4 || input.dim() == 5),
              "grid_sampler: expected a 4-d or 5-d input, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  return input.dim() == 4
             ? grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)
             : grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners);
}

}  // namespace brasa
