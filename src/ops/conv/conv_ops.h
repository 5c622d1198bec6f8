#pragma once
// The convolution ops (Note [Op declarations]): kernels in convolution.cpp, derivatives in
// conv_grad.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// convolution.cpp
BRASA_DECLARE_OP(
    convolution_op, "convolution",
    "convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] "
    "dilation, bool transposed, int[] output_padding, int groups) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, bool,
           IntArrayRef, int64_t));
BRASA_DECLARE_OP(
    convolution_backward_op, "convolution_backward",
    "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, int[] stride, int[] "
    "padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool mask_input, "
    "bool mask_weight, bool mask_bias) -> (Tensor, Tensor, Tensor)",
    std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, IntArrayRef,
                                       IntArrayRef, IntArrayRef, bool, IntArrayRef, int64_t, bool,
                                       bool, bool));
BRASA_ATEN(convolution_backward_op,
           "none: aten's convolution_backward takes bias_sizes and output_mask as bool[3]; brasa's "
           "takes three bools and no bias sizes");

}  // namespace brasa::ops
