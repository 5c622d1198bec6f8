#pragma once
// <torch/csrc/autograd/profiler.h>: the record scopes of <ATen/record_function.h> (free, recording
// nothing). brasa has no profiler: RecordProfile, enableProfilerLegacy / disableProfilerLegacy,
// the Kineto API and trace export are not provided, so code calling them fails to compile rather
// than silently profiling nothing. profilerEnabled() is false.

#include "ATen/record_function.h"

namespace torch::autograd::profiler {
/// Whether a legacy profiler is running: never, in brasa.
inline bool profilerEnabled() { return false; }
}  // namespace torch::autograd::profiler
