#pragma once
// The resampling family's dispatched ops (Note [Op declarations]): nearest and bilinear upsampling
// (upsample.cpp), im2col and col2im (fold.cpp), reflection / replication / circular pads per
// dimension (pad.cpp), each with its backward op; derivatives in resample_grad.cpp.

#include <optional>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// upsample.cpp
BRASA_DECLARE_OP(upsample_nearest1d_op, "upsample_nearest1d",
                 "upsample_nearest1d(Tensor self, int[] output_size, float? scales) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, std::optional<double>));
BRASA_DECLARE_OP(upsample_nearest2d_op, "upsample_nearest2d",
                 "upsample_nearest2d(Tensor self, int[] output_size, float? scales_h, float? "
                 "scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, std::optional<double>, std::optional<double>));
BRASA_DECLARE_OP(upsample_nearest3d_op, "upsample_nearest3d",
                 "upsample_nearest3d(Tensor self, int[] output_size, float? scales_d, float? "
                 "scales_h, float? scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, std::optional<double>, std::optional<double>,
                        std::optional<double>));
BRASA_DECLARE_OP(upsample_nearest1d_backward_op, "upsample_nearest1d_backward",
                 "upsample_nearest1d_backward(Tensor grad_output, int[] output_size, int[] "
                 "input_size, float? scales) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<double>));
BRASA_DECLARE_OP(upsample_nearest2d_backward_op, "upsample_nearest2d_backward",
                 "upsample_nearest2d_backward(Tensor grad_output, int[] output_size, int[] "
                 "input_size, float? scales_h, float? scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<double>,
                        std::optional<double>));
BRASA_DECLARE_OP(upsample_nearest3d_backward_op, "upsample_nearest3d_backward",
                 "upsample_nearest3d_backward(Tensor grad_output, int[] output_size, int[] "
                 "input_size, float? scales_d, float? scales_h, float? scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<double>,
                        std::optional<double>, std::optional<double>));
BRASA_DECLARE_OP(upsample_bilinear2d_op, "upsample_bilinear2d",
                 "upsample_bilinear2d(Tensor self, int[] output_size, bool align_corners, float? "
                 "scales_h, float? scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool, std::optional<double>,
                        std::optional<double>));
BRASA_DECLARE_OP(upsample_bilinear2d_backward_op, "upsample_bilinear2d_backward",
                 "upsample_bilinear2d_backward(Tensor grad_output, int[] output_size, int[] "
                 "input_size, bool align_corners, float? scales_h, float? scales_w) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, bool, std::optional<double>,
                        std::optional<double>));

// fold.cpp
BRASA_DECLARE_OP(
    im2col_op, "im2col",
    "im2col(Tensor self, int[] kernel_size, int[] dilation, int[] padding, int[] stride) -> Tensor",
    Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef));
BRASA_DECLARE_OP(col2im_op, "col2im",
                 "col2im(Tensor self, int[] output_size, int[] kernel_size, int[] dilation, int[] "
                 "padding, int[] stride) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef, IntArrayRef, IntArrayRef,
                        IntArrayRef));

// pad.cpp
BRASA_DECLARE_OP(reflection_pad1d_op, "reflection_pad1d",
                 "reflection_pad1d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(reflection_pad2d_op, "reflection_pad2d",
                 "reflection_pad2d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(reflection_pad3d_op, "reflection_pad3d",
                 "reflection_pad3d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    reflection_pad1d_backward_op, "reflection_pad1d_backward",
    "reflection_pad1d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    reflection_pad2d_backward_op, "reflection_pad2d_backward",
    "reflection_pad2d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    reflection_pad3d_backward_op, "reflection_pad3d_backward",
    "reflection_pad3d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(replication_pad1d_op, "replication_pad1d",
                 "replication_pad1d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(replication_pad2d_op, "replication_pad2d",
                 "replication_pad2d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(replication_pad3d_op, "replication_pad3d",
                 "replication_pad3d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    replication_pad1d_backward_op, "replication_pad1d_backward",
    "replication_pad1d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    replication_pad2d_backward_op, "replication_pad2d_backward",
    "replication_pad2d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    replication_pad3d_backward_op, "replication_pad3d_backward",
    "replication_pad3d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(circular_pad1d_op, "circular_pad1d",
                 "circular_pad1d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad1d_op,
           "none: aten 1.13 pads circularly with one composite, _pad_circular(self, pad), for "
           "every dimension");
BRASA_DECLARE_OP(circular_pad2d_op, "circular_pad2d",
                 "circular_pad2d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad2d_op,
           "none: aten 1.13 pads circularly with one composite, _pad_circular(self, pad), for "
           "every dimension");
BRASA_DECLARE_OP(circular_pad3d_op, "circular_pad3d",
                 "circular_pad3d(Tensor self, int[] padding) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad3d_op,
           "none: aten 1.13 pads circularly with one composite, _pad_circular(self, pad), for "
           "every dimension");
BRASA_DECLARE_OP(
    circular_pad1d_backward_op, "circular_pad1d_backward",
    "circular_pad1d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad1d_backward_op,
           "none: aten 1.13 has no circular pad backward op (its pad is a composite)");
BRASA_DECLARE_OP(
    circular_pad2d_backward_op, "circular_pad2d_backward",
    "circular_pad2d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad2d_backward_op,
           "none: aten 1.13 has no circular pad backward op (its pad is a composite)");
BRASA_DECLARE_OP(
    circular_pad3d_backward_op, "circular_pad3d_backward",
    "circular_pad3d_backward(Tensor grad_output, Tensor self, int[] padding) -> Tensor",
    Tensor(const Tensor&, const Tensor&, IntArrayRef));
BRASA_ATEN(circular_pad3d_backward_op,
           "none: aten 1.13 has no circular pad backward op (its pad is a composite)");

}  // namespace brasa::ops
