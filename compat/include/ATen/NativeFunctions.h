#pragma once
// at::native: libtorch's kernels under their own names. brasa's ops choose their kernel when they
// are called, so the at::native names that programs call are the dispatched ops (the same
// results for CPU tensors); others stay compile errors naming them.

#include "ATen/Functions.h"

namespace at::native {
using ::brasa::is_nonzero;
}  // namespace at::native
