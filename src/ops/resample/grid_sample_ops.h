#pragma once
// grid_sampler_2d / grid_sampler_3d and their backward ops (Note [Op declarations]): kernels in
// grid_sample.cpp (loops in backends/cpu/kernels/grid_sample_kernels.cpp), derivatives in
// grid_sample_grad.cpp. The public at:: functions are in brasa/nn/resample_functions.h.

#include <cstdint>
#include <tuple>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(grid_sampler_2d_op, "grid_sampler_2d",
                 "grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int "
                 "padding_mode, bool align_corners) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool));
BRASA_DECLARE_OP(grid_sampler_3d_op, "grid_sampler_3d",
                 "grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int "
                 "padding_mode, bool align_corners) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool));
BRASA_DECLARE_OP(grid_sampler_2d_backward_op, "grid_sampler_2d_backward",
                 "grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int "
                 "interpolation_mode, int padding_mode, bool align_corners) -> (Tensor grad_input, "
                 "Tensor grad_grid)",
                 std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, int64_t,
                                            int64_t, bool));
BRASA_ATEN(grid_sampler_2d_backward_op,
           "none: aten's grid_sampler_2d_backward takes an output_mask bool[2]; brasa's computes "
           "both gradients");
BRASA_DECLARE_OP(grid_sampler_3d_backward_op, "grid_sampler_3d_backward",
                 "grid_sampler_3d_backward(Tensor grad_output, Tensor input, Tensor grid, int "
                 "interpolation_mode, int padding_mode, bool align_corners) -> (Tensor grad_input, "
                 "Tensor grad_grid)",
                 std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, int64_t,
                                            int64_t, bool));
BRASA_ATEN(grid_sampler_3d_backward_op,
           "none: aten's grid_sampler_3d_backward takes an output_mask bool[2]; brasa's computes "
           "both gradients");

}  // namespace brasa::ops
