#pragma once
// Normalisation and distance functionals (torch::nn::functional spellings) with their option
// structs. Floating inputs only (TypeError otherwise); ValueError for shapes that don't fit (the
// message names the op and the shapes). Absent (undefined) weight/bias mean no affine transform.

#include <cstdint>
#include <optional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"

namespace brasa::nn {

struct BRASA_API LocalResponseNormOptions {
  LocalResponseNormOptions(int64_t size) : size_(size) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, size);
  BRASA_ARG(double, alpha) = 1e-4;
  BRASA_ARG(double, beta) = 0.75;
  BRASA_ARG(double, k) = 1.;
};
struct BRASA_API CosineSimilarityOptions {
  BRASA_ARG(int64_t, dim) = 1;
  BRASA_ARG(double, eps) = 1e-8;
};
struct BRASA_API PairwiseDistanceOptions {
  BRASA_ARG(double, p) = 2.0;
  BRASA_ARG(double, eps) = 1e-6;
  BRASA_ARG(bool, keepdim) = false;
};

namespace functional {

using LocalResponseNormFuncOptions = LocalResponseNormOptions;
using CosineSimilarityFuncOptions = CosineSimilarityOptions;
using PairwiseDistanceFuncOptions = PairwiseDistanceOptions;

struct BRASA_API LayerNormFuncOptions {
  LayerNormFuncOptions(
      std::vector<int64_t> normalized_shape)  // NOLINT(google-explicit-constructor)
      : normalized_shape_(std::move(normalized_shape)) {}
  BRASA_ARG(std::vector<int64_t>, normalized_shape);
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(double, eps) = 1e-5;
};
struct BRASA_API RMSNormFuncOptions {
  RMSNormFuncOptions(std::vector<int64_t> normalized_shape)  // NOLINT(google-explicit-constructor)
      : normalized_shape_(std::move(normalized_shape)) {}
  BRASA_ARG(std::vector<int64_t>, normalized_shape);
  BRASA_ARG(Tensor, weight) = {};
  /// Absent: the machine epsilon of the input's dtype.
  BRASA_ARG(std::optional<double>, eps) = std::nullopt;
};
struct BRASA_API GroupNormFuncOptions {
  GroupNormFuncOptions(int64_t num_groups)  // NOLINT(google-explicit-constructor)
      : num_groups_(num_groups) {}
  BRASA_ARG(int64_t, num_groups);
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(double, eps) = 1e-5;
};
struct BRASA_API BatchNormFuncOptions {
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(bool, training) = false;
  /// Absent: ValueError when running statistics are updated (no batch counter in a functional).
  BRASA_ARG(std::optional<double>, momentum) = 0.1;
  BRASA_ARG(double, eps) = 1e-5;
};
struct BRASA_API InstanceNormFuncOptions {
  BRASA_ARG(Tensor, running_mean) = {};
  BRASA_ARG(Tensor, running_var) = {};
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(bool, use_input_stats) = true;
  BRASA_ARG(double, momentum) = 0.1;
  BRASA_ARG(double, eps) = 1e-5;
};
struct BRASA_API NormalizeFuncOptions {
  BRASA_ARG(double, p) = 2.0;
  BRASA_ARG(int64_t, dim) = 1;
  BRASA_ARG(double, eps) = 1e-12;
  BRASA_ARG(std::optional<Tensor>, out) = std::nullopt;
};

/// Normalises over the trailing dims `normalized_shape` (biased variance), then weight/bias of
/// that shape. ValueError when the input's trailing sizes or weight/bias shapes differ.
BRASA_API Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options);
/// x / sqrt(mean(x^2 over normalized_shape) + eps) * weight.
BRASA_API Tensor rms_norm(const Tensor& input, const RMSNormFuncOptions& options);
/// input [N, C, *]: normalises each of num_groups groups of C / num_groups channels; weight and
/// bias are [C]. ValueError when C is not divisible by num_groups.
BRASA_API Tensor group_norm(const Tensor& input, const GroupNormFuncOptions& options);
/// input [N, C, *]. Training: batch statistics per channel, and running_mean/running_var (when
/// given, [C]) are updated in place with momentum (running_var with the unbiased variance).
/// Evaluation: running statistics are required (ValueError otherwise).
BRASA_API Tensor batch_norm(const Tensor& input, const Tensor& running_mean,
                            const Tensor& running_var, const BatchNormFuncOptions& options = {});
/// batch_norm per (sample, channel) of input [N, C, *]; running stats [C] are updated with the
/// mean over samples of the instance statistics.
BRASA_API Tensor instance_norm(const Tensor& input, const InstanceNormFuncOptions& options = {});
/// x / max(||x||_p along dim, eps).
BRASA_API Tensor normalize(const Tensor& input, NormalizeFuncOptions options = {});
/// input [N, C, *]: x / (k + alpha / size * sum of x^2 over `size` neighbouring channels)^beta.
BRASA_API Tensor local_response_norm(const Tensor& input,
                                     const LocalResponseNormFuncOptions& options);
/// sum(x1 * x2) / max(||x1|| * ||x2||, eps) along dim (inputs broadcast).
BRASA_API Tensor cosine_similarity(const Tensor& x1, const Tensor& x2,
                                   const CosineSimilarityFuncOptions& options = {});
/// ||x1 - x2 + eps||_p along the last dim.
BRASA_API Tensor pairwise_distance(const Tensor& x1, const Tensor& x2,
                                   const PairwiseDistanceFuncOptions& options = {});

}  // namespace functional
}  // namespace brasa::nn
