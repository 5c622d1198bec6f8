#pragma once
// The dispatched pointwise ops with extra operands (clamp, lerp, where, masked_fill, nan_to_num)
// (Note [Op declarations]); their CPU loops are behind backends/cpu/kernels/ternary_kernels.h.

#include <optional>

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// The dispatched ops (Note [Op declarations]).
// clamp.cpp
BRASA_DECLARE_OP(clamp_op, "clamp",
                 "clamp(Tensor self, Scalar? min, Scalar? max, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const std::optional<Scalar>&, const std::optional<Scalar>&,
                        const Tensor&));
BRASA_DECLARE_OP(clamp_tensor_op, "clamp.Tensor",
                 "clamp.Tensor(Tensor self, Tensor? min, Tensor? max, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const std::optional<Tensor>&, const std::optional<Tensor>&,
                        const Tensor&));
BRASA_DECLARE_OP(clamp_min_op, "clamp_min",
                 "clamp_min(Tensor self, Scalar min, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const Scalar&, const Tensor&));
BRASA_DECLARE_OP(clamp_max_op, "clamp_max",
                 "clamp_max(Tensor self, Scalar max, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const Scalar&, const Tensor&));
// lerp.cpp
BRASA_DECLARE_OP(lerp_scalar_op, "lerp.Scalar",
                 "lerp.Scalar(Tensor self, Tensor end, Scalar weight, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&));
BRASA_DECLARE_OP(lerp_tensor_op, "lerp.Tensor",
                 "lerp.Tensor(Tensor self, Tensor end, Tensor weight, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&));
// where.cpp
BRASA_DECLARE_OP(where_op, "where",
                 "where(Tensor condition, Tensor self, Tensor other, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&));
BRASA_ATEN(where_op,
           "where.self(condition, self, other) if out=None; "
           "where.self_out(condition, self, other, out) if out=given");
BRASA_DECLARE_OP(
    masked_fill_op, "masked_fill",
    "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value, Tensor? out) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&));
// nan_to_num.cpp
BRASA_DECLARE_OP(
    nan_to_num_op, "nan_to_num",
    "nan_to_num(Tensor self, float? nan, float? posinf, float? neginf, Tensor? out) -> Tensor",
    Tensor(const Tensor&, std::optional<double>, std::optional<double>, std::optional<double>,
           const Tensor&));

}  // namespace brasa::ops
