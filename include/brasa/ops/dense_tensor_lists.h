#pragma once
// libtorch's helpers for flat buffers of tensor lists (`torch::flatten_dense_tensors`, used to
// bucket gradients) and its backend queries that are constant in brasa (`at::is_distributed`,
// `at::is_vulkan_available`: always false, as in a CPU libtorch).

#include <vector>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// The elements of every tensor, in order, as one 1-d tensor (of their promoted dtype).
BRASA_API Tensor flatten_dense_tensors(ArrayRef<Tensor> tensors);
/// Views of flat shaped like `tensors`, in order: the inverse of flatten_dense_tensors. ValueError
/// when flat is not 1-d or its size is not the sum of the tensors' sizes.
BRASA_API std::vector<Tensor> unflatten_dense_tensors(const Tensor& flat, ArrayRef<Tensor> tensors);
/// Always false (libtorch answers false for every tensor).
BRASA_API bool is_distributed(const Tensor& self);
/// Always false: brasa has no Vulkan backend.
BRASA_API bool is_vulkan_available();

}  // namespace brasa
