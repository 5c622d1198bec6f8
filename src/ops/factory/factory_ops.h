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
BRASA_ATEN(empty_op,
           "empty.memory_format(size, ScalarType? dtype, Layout?=None, Device? device, bool?=None, "
           "MemoryFormat?=None)");
BRASA_DECLARE_OP(
    empty_strided_op, "empty_strided",
    "empty_strided(int[] size, int[] stride, ScalarType dtype, Device device) -> Tensor",
    Tensor(IntArrayRef, IntArrayRef, ScalarType, Device));
BRASA_ATEN(empty_strided_op, "factory");

// eye.cpp
BRASA_DECLARE_OP(eye_op, "eye", "eye.m(int n, int m, ScalarType dtype, Device device) -> Tensor",
                 Tensor(int64_t, int64_t, ScalarType, Device));
BRASA_ATEN(eye_op, "factory");

// range.cpp
BRASA_DECLARE_OP(arange_op, "arange",
                 "arange.start_step(Scalar start, Scalar end, Scalar step, ScalarType dtype, "
                 "Device device) -> Tensor",
                 Tensor(const Scalar&, const Scalar&, const Scalar&, ScalarType, Device));
BRASA_ATEN(arange_op, "factory");
BRASA_DECLARE_OP(
    linspace_op, "linspace",
    "linspace(Scalar start, Scalar end, int steps, ScalarType dtype, Device device) -> Tensor",
    Tensor(const Scalar&, const Scalar&, int64_t, ScalarType, Device));
BRASA_ATEN(linspace_op, "factory");
BRASA_DECLARE_OP(logspace_op, "logspace",
                 "logspace(Scalar start, Scalar end, int steps, float base, ScalarType dtype, "
                 "Device device) -> Tensor",
                 Tensor(const Scalar&, const Scalar&, int64_t, double, ScalarType, Device));
BRASA_ATEN(logspace_op, "factory");

}  // namespace brasa::ops
