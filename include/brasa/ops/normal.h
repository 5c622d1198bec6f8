#pragma once
// libtorch's at::normal overloads (Tensor or double mean and std, the factory form, out=). Not in
// brasa/brasa.h: compat's <ATen/Functions.h> (so <torch/torch.h>) includes it; brasa programs
// include it themselves. The in-place Tensor::normal_ and normal_functional are the core forms.

#include <optional>

#include "brasa/core/array_ref.h"
#include "brasa/core/device.h"
#include "brasa/core/dtype.h"
#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"
#include "brasa/core/tensor_options.h"

namespace brasa {

/// Normal draws with per-element parameters (libtorch's at::normal overloads): mean + std * z for
/// standard normal z, in libtorch 1.13's order and rounding, so a seeded generator gives its
/// values. (Tensor mean, double std): mean's shape and dtype; (double mean, Tensor std): std's;
/// (Tensor mean, Tensor std): the broadcast shape, mean's dtype; always contiguous. The draws carry
/// no gradient: mean and std get zeros (NormalBackward1-3), as in libtorch. ValueError for a
/// negative std (any element of a std tensor), shapes that do not broadcast; TypeError for a
/// complex std or integral draws.
BRASA_API Tensor normal(const Tensor& mean, double std = 1,
                        std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor normal(double mean, const Tensor& std,
                        std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor normal(const Tensor& mean, const Tensor& std,
                        std::optional<Generator> generator = std::nullopt);
/// A new tensor of `size` filled with normal(mean, std) draws (the options' dtype, the default
/// dtype when none; floating only).
BRASA_API Tensor normal(double mean, double std, IntArrayRef size,
                        std::optional<Generator> generator = std::nullopt,
                        const TensorOptions& options = {});
/// The same with libtorch's unpacked options; pin_memory=true throws (brasa has no pinned memory).
BRASA_API Tensor normal(double mean, double std, IntArrayRef size,
                        std::optional<Generator> generator, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device,
                        std::optional<bool> pin_memory);
/// The out= forms: the same draws written into out (resized to the result's shape; its dtype
/// must hold the result's).
BRASA_API Tensor& normal_out(Tensor& out, const Tensor& mean, double std = 1,
                             std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor& normal_out(Tensor& out, double mean, const Tensor& std,
                             std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor& normal_out(Tensor& out, const Tensor& mean, const Tensor& std,
                             std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor& normal_out(Tensor& out, double mean, double std, IntArrayRef size,
                             std::optional<Generator> generator = std::nullopt);

}  // namespace brasa
