#pragma once
// Compares brasa's result with PyTorch's: dtypes and shapes exactly, integral and bool values
// exactly, floating values with |a - e| <= atol + rtol * |e| (NaN matches NaN, infinities must
// match in sign).

#include <string>

#include "fixture.h"

namespace brasa::conformance {

/// Empty when `actual` matches `expected`; otherwise what differs, for the failure report.
std::string compare_values(const Value& expected, const Value& actual, double rtol, double atol,
                           uint32_t flags);

}  // namespace brasa::conformance
