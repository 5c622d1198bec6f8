#pragma once
// The normalisation functions of libtorch's at:: / torch:: namespace (`torch::layer_norm(x, {5})`,
// `at::batch_norm(x, w, b, rm, rv, training, 0.1, 1e-5, true)`): libtorch 1.13's signatures and
// defaults over nn::functional's normalisations (nn/functional/normalization.h: floating inputs,
// TypeError otherwise; ValueError naming the op and shapes for shapes that do not fit). An absent
// or undefined optional tensor means none. `cudnn_enable(d)` is accepted and ignored (no cuDNN).
// The native_ forms also return the statistics libtorch's do.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/array_ref.h"
#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// Normalises over the trailing dims `normalized_shape` (biased variance), then weight/bias.
BRASA_API Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                            const std::optional<Tensor>& weight = {},
                            const std::optional<Tensor>& bias = {}, double eps = 1e-05,
                            bool cudnn_enable = true);
/// (output, mean, rstd); mean and rstd have input's leading dims and 1 for each normalised dim.
BRASA_API std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                               IntArrayRef normalized_shape,
                                                               const std::optional<Tensor>& weight,
                                                               const std::optional<Tensor>& bias,
                                                               double eps);
/// input [N, C, *] in num_groups groups of channels; weight and bias [C].
BRASA_API Tensor group_norm(const Tensor& input, int64_t num_groups,
                            const std::optional<Tensor>& weight = {},
                            const std::optional<Tensor>& bias = {}, double eps = 1e-05,
                            bool cudnn_enabled = true);
/// (output, mean [N, group], rstd [N, group]) of an input of N * C * HxW elements.
BRASA_API std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input,
                                                               const std::optional<Tensor>& weight,
                                                               const std::optional<Tensor>& bias,
                                                               int64_t N, int64_t C, int64_t HxW,
                                                               int64_t group, double eps);
/// input [N, C, *]: batch statistics when training (running stats [C], when given, updated in
/// place with momentum), the running statistics otherwise.
BRASA_API Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                            const std::optional<Tensor>& bias,
                            const std::optional<Tensor>& running_mean,
                            const std::optional<Tensor>& running_var, bool training,
                            double momentum, double eps, bool cudnn_enabled);
/// (output, save_mean [C], save_invstd [C]) when training; empty statistics otherwise.
BRASA_API std::tuple<Tensor, Tensor, Tensor> native_batch_norm(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    bool training, double momentum, double eps);
/// (mean [C], biased variance [C]) of input [N, C, *] over all but dim 1; running_mean and
/// running_var (when given) are updated in place with momentum, running_var with the unbiased
/// variance.
BRASA_API std::tuple<Tensor, Tensor> batch_norm_update_stats(
    const Tensor& input, const std::optional<Tensor>& running_mean,
    const std::optional<Tensor>& running_var, double momentum);
/// Synchronised batch norm's statistics (libtorch runs these on CUDA; brasa on any device):
/// (mean [C], 1 / sqrt(biased var + eps) [C]) of input [N, C, *] over all but dim 1.
BRASA_API std::tuple<Tensor, Tensor> batch_norm_stats(const Tensor& input, double eps);
/// Combines per-replica statistics mean, invstd [R, C] of replicas holding counts [R] elements
/// per channel into the global (mean [C], invstd [C]); running_mean / running_var (when given)
/// are updated in place with momentum (running_var with the unbiased variance).
BRASA_API std::tuple<Tensor, Tensor> batch_norm_gather_stats_with_counts(
    const Tensor& input, const Tensor& mean, const Tensor& invstd,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    double momentum, double eps, const Tensor& counts);
/// batch_norm_gather_stats_with_counts with `count` elements on every replica.
BRASA_API std::tuple<Tensor, Tensor> batch_norm_gather_stats(
    const Tensor& input, const Tensor& mean, const Tensor& invstd,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    double momentum, double eps, int64_t count);
/// batch_norm per (sample, channel) of input [N, C, *].
BRASA_API Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight,
                               const std::optional<Tensor>& bias,
                               const std::optional<Tensor>& running_mean,
                               const std::optional<Tensor>& running_var, bool use_input_stats,
                               double momentum, double eps, bool cudnn_enabled);

}  // namespace brasa
