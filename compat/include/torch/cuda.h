#pragma once
// torch::cuda: brasa has no CUDA backend, so no CUDA device is ever available.

#include <cstdint>

namespace torch::cuda {
inline bool is_available() { return false; }
inline int64_t device_count() { return 0; }
inline bool cudnn_is_available() { return false; }
}  // namespace torch::cuda
