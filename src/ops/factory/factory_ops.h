#pragma once
// The factory family's dispatched ops (Note [Op declarations]): empty and empty_strided in
// empty.cpp, eye in eye.cpp, arange, linspace and logspace in range.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// empty.cpp
BRASA_DECLARE_OP(empty_op, "empty", "empty(int[] size, ScalarType dtype, Device device) -> Tensor",
                 Tensor(IntArrayRef, ScalarType, Device));
BRASA_DECLARE_OP(
    empty_strided_op, "empty_strided",
    "empty_strided(int[] size, int[] stride, ScalarType dtype, Device device) -> Tensor",
    Tensor(IntArrayRef, IntArrayRef, ScalarType, Device));

// eye.cpp
BRASA_DECLARE_OP(eye_op, "eye", "eye.m(int n, int m, ScalarType dtype, Device device) -> Tensor",
                 Tensor(int64_t, int64_t, ScalarType, Device));

// range.cpp
BRASA_DECLARE_OP(arange_op, "arange",
                 "arange.start_step(Scalar start, Scalar end, Scalar step, ScalarType dtype, "
                 "Device device) -> Tensor",
                 Tensor(const Scalar&, const Scalar&, const Scalar&, ScalarType, Device));
BRASA_DECLARE_OP(
    linspace_op, "linspace",
    "linspace(Scalar start, Scalar end, int steps, ScalarType dtype, Device device) -> Tensor",
    Tensor(const Scalar&, const Scalar&, int64_t, ScalarType, Device));
BRASA_DECLARE_OP(logspace_op, "logspace",
                 "logspace(Scalar start, Scalar end, int steps, float base, ScalarType dtype, "
                 "Device device) -> Tensor",
                 Tensor(const Scalar&, const Scalar&, int64_t, double, ScalarType, Device));

}  // namespace brasa::ops
