#pragma once
// Where a tensor's memory comes from (libtorch spellings): from_file (a tensor read or mapped from
// a binary file), pinned memory (none on a CPU-only build), and lift / lift_fresh (libtorch's
// markers for tensors entering a traced program; the tensor itself in eager mode).

#include <optional>
#include <string_view>

#include "brasa/core/tensor.h"

namespace brasa {

/// A 1-D tensor of `size` elements of options' dtype (the default dtype if unset) from the start of
/// the file `filename`, in the machine's byte order. shared = false (the default) reads a copy;
/// shared = true maps the file, so writes to the tensor go to the file (it must be writable). size
/// 0 gives an empty tensor. ValueError for a missing or unreadable file, a file shorter than size
/// elements, or a negative size; options.requires_grad() is honoured.
BRASA_API Tensor from_file(std::string_view filename, std::optional<bool> shared = std::nullopt,
                           std::optional<int64_t> size = 0, const TensorOptions& options = {});

/// Whether self lives in page-locked (pinned) host memory: always false, as in a libtorch built
/// without CUDA. (libtorch spells it as a Tensor method.)
BRASA_API bool is_pinned(const Tensor& self, std::optional<Device> device = std::nullopt);
/// libtorch's pin_memory: pinning needs a CUDA backend, which brasa does not have, so this raises
/// NotImplementedError as libtorch without CUDA does. (libtorch spells it as a Tensor method.)
BRASA_API Tensor pin_memory(const Tensor& self, std::optional<Device> device = std::nullopt);

/// self (the same tensor), as libtorch's eager lift and lift_fresh.
BRASA_API Tensor lift(const Tensor& self);
BRASA_API Tensor lift_fresh(const Tensor& self);

}  // namespace brasa
