#pragma once
// The pooling family's dispatched ops (Note [Op declarations]), one per dimension: max pools with
// indices (max_pool.cpp), average pools (avg_pool.cpp), adaptive pools (adaptive.cpp), each with
// its backward op; derivatives in pool_grad.cpp.

#include <optional>
#include <tuple>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// max_pool.cpp
BRASA_DECLARE_OP(max_pool1d_with_indices_op, "max_pool1d_with_indices",
                 "max_pool1d_with_indices(Tensor self, int[] kernel_size, int[] stride, int[] "
                 "padding, int[] dilation, bool ceil_mode) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                                            IntArrayRef, bool));
BRASA_DECLARE_OP(max_pool2d_with_indices_op, "max_pool2d_with_indices",
                 "max_pool2d_with_indices(Tensor self, int[] kernel_size, int[] stride, int[] "
                 "padding, int[] dilation, bool ceil_mode) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                                            IntArrayRef, bool));
BRASA_DECLARE_OP(max_pool3d_with_indices_op, "max_pool3d_with_indices",
                 "max_pool3d_with_indices(Tensor self, int[] kernel_size, int[] stride, int[] "
                 "padding, int[] dilation, bool ceil_mode) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef,
                                            IntArrayRef, bool));
BRASA_DECLARE_OP(
    max_pool1d_with_indices_backward_op, "max_pool1d_with_indices_backward",
    "max_pool1d_with_indices_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] "
    "stride, int[] padding, int[] dilation, bool ceil_mode, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool,
           const Tensor&));
BRASA_ATEN(
    max_pool1d_with_indices_backward_op,
    "none: aten 1.13 has no max_pool1d_with_indices_backward (its 1-d max pool runs as a 2-d one)");
BRASA_DECLARE_OP(
    max_pool2d_with_indices_backward_op, "max_pool2d_with_indices_backward",
    "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] "
    "stride, int[] padding, int[] dilation, bool ceil_mode, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool,
           const Tensor&));
BRASA_DECLARE_OP(
    max_pool3d_with_indices_backward_op, "max_pool3d_with_indices_backward",
    "max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] "
    "stride, int[] padding, int[] dilation, bool ceil_mode, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef, bool,
           const Tensor&));

/// max_pool{dims}d_with_indices_backward followed by relu's gradient threshold_backward(grad,
/// self) in one scatter (Note [Relu gradient in the max-pool backward]); for compiled graphs.
BRASA_API Tensor max_pool_backward_relu(int64_t dims, const Tensor& grad_output, const Tensor& self,
                                        IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                                        IntArrayRef dilation, bool ceil_mode,
                                        const Tensor& indices);

// avg_pool.cpp
BRASA_DECLARE_OP(avg_pool1d_op, "avg_pool1d",
                 "avg_pool1d(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool "
                 "ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                        std::optional<int64_t>));
BRASA_ATEN(avg_pool1d_op,
           "avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad) if "
           "divisor_override=None");
BRASA_DECLARE_OP(avg_pool2d_op, "avg_pool2d",
                 "avg_pool2d(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool "
                 "ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                        std::optional<int64_t>));
BRASA_DECLARE_OP(avg_pool3d_op, "avg_pool3d",
                 "avg_pool3d(Tensor self, int[] kernel_size, int[] stride, int[] padding, bool "
                 "ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
                        std::optional<int64_t>));
BRASA_DECLARE_OP(
    avg_pool1d_backward_op, "avg_pool1d_backward",
    "avg_pool1d_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] stride, int[] "
    "padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
           std::optional<int64_t>));
BRASA_ATEN(avg_pool1d_backward_op,
           "none: aten 1.13 has no avg_pool1d_backward (its 1-d average pool runs as a 2-d one)");
BRASA_DECLARE_OP(
    avg_pool2d_backward_op, "avg_pool2d_backward",
    "avg_pool2d_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] stride, int[] "
    "padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
           std::optional<int64_t>));
BRASA_DECLARE_OP(
    avg_pool3d_backward_op, "avg_pool3d_backward",
    "avg_pool3d_backward(Tensor grad_output, Tensor self, int[] kernel_size, int[] stride, int[] "
    "padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool, bool,
           std::optional<int64_t>));

// adaptive.cpp
BRASA_DECLARE_OP(adaptive_avg_pool1d_op, "adaptive_avg_pool1d",
                 "adaptive_avg_pool1d(Tensor self, int[] output_size) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(adaptive_avg_pool2d_op, "adaptive_avg_pool2d",
                 "adaptive_avg_pool2d(Tensor self, int[] output_size) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(adaptive_avg_pool3d_op, "adaptive_avg_pool3d",
                 "adaptive_avg_pool3d(Tensor self, int[] output_size) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(adaptive_avg_pool1d_backward_op, "adaptive_avg_pool1d_backward",
                 "adaptive_avg_pool1d_backward(Tensor grad_output, Tensor self) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));
BRASA_ATEN(adaptive_avg_pool1d_backward_op,
           "none: aten 1.13 has no adaptive_avg_pool1d_backward (its 1-d pool runs as a 2-d one)");
BRASA_DECLARE_OP(adaptive_avg_pool2d_backward_op, "adaptive_avg_pool2d_backward",
                 "adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));
BRASA_ATEN(adaptive_avg_pool2d_backward_op, "_adaptive_avg_pool2d_backward(grad_output, self)");
BRASA_DECLARE_OP(adaptive_avg_pool3d_backward_op, "adaptive_avg_pool3d_backward",
                 "adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));
BRASA_ATEN(adaptive_avg_pool3d_backward_op, "_adaptive_avg_pool3d_backward(grad_output, self)");
BRASA_DECLARE_OP(adaptive_max_pool1d_op, "adaptive_max_pool1d",
                 "adaptive_max_pool1d(Tensor self, int[] output_size) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(adaptive_max_pool2d_op, "adaptive_max_pool2d",
                 "adaptive_max_pool2d(Tensor self, int[] output_size) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(adaptive_max_pool3d_op, "adaptive_max_pool3d",
                 "adaptive_max_pool3d(Tensor self, int[] output_size) -> (Tensor, Tensor)",
                 std::tuple<Tensor, Tensor>(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    adaptive_max_pool1d_backward_op, "adaptive_max_pool1d_backward",
    "adaptive_max_pool1d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&));
BRASA_ATEN(adaptive_max_pool1d_backward_op,
           "none: aten 1.13 has no adaptive_max_pool1d_backward (its 1-d pool runs as a 2-d one)");
BRASA_DECLARE_OP(
    adaptive_max_pool2d_backward_op, "adaptive_max_pool2d_backward",
    "adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&));
BRASA_DECLARE_OP(
    adaptive_max_pool3d_backward_op, "adaptive_max_pool3d_backward",
    "adaptive_max_pool3d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&));

}  // namespace brasa::ops
