#pragma once
// Backend mode of the conformance runner (like ggml's test-backend-ops): every case runs on the
// CPU and on a registered backend's device, and the device's results (and gradients) must match
// the CPU's within the case's tolerances. Inputs are copied to the device with their exact
// geometry (strides, offsets, expanded dims), so non-contiguous cases stay non-contiguous.

#include <string>

#include "registry.h"

namespace brasa::conformance {

/// Empty when `c` gives the same outcome on `device` as on the CPU, else why not.
std::string run_case_on_device(const Case& c, const OpFn& fn, Device device);

}  // namespace brasa::conformance
