#pragma once
// Stubs of the range factories (arange, linspace, logspace); loops in
// backends/cpu/kernels/range_kernels.cpp. Each fills `n` contiguous elements of dtype `dt`.

#include <cstdint>
#include <type_traits>

#include "backends/cpu/stub.h"
#include "brasa/core/scalar.h"

namespace brasa::ops {

/// The type arange computes start + i * step in: int64 for integers, float for Half/BFloat16,
/// double for Float/Double (like PyTorch's CPU accumulate type).
template <typename T>
using range_acc_t = std::conditional_t<
    std::is_integral_v<T>, int64_t,
    std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, double>, double, float>>;

using ArangeKernel = void (*)(void* data, ScalarType dt, int64_t n, const Scalar& start,
                              const Scalar& step);
using LinspaceKernel = void (*)(void* data, ScalarType dt, int64_t n, const Scalar& start,
                                const Scalar& end);
using LogspaceKernel = void (*)(void* data, ScalarType dt, int64_t n, const Scalar& start,
                                const Scalar& end, double base);

BRASA_DECLARE_STUB(arange_stub, ArangeKernel);
BRASA_DECLARE_STUB(linspace_stub, LinspaceKernel);
BRASA_DECLARE_STUB(logspace_stub, LogspaceKernel);

}  // namespace brasa::ops
