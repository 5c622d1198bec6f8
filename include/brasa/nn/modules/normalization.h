#pragma once
// LayerNorm, RMSNorm and GroupNorm modules with libtorch's option structs.

#include <cstdint>
#include <optional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API LayerNormOptions {
  LayerNormOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  BRASA_ARG(std::vector<int64_t>, normalized_shape);
  BRASA_ARG(double, eps) = 1e-5;
  BRASA_ARG(bool, elementwise_affine) = true;
};

/// Normalises over the trailing normalized_shape dims; weight = 1 and bias = 0 of that shape
/// (elementwise_affine). ValueError (from F::layer_norm) when the input's trailing sizes differ.
class BRASA_API LayerNormImpl : public Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape)  // NOLINT
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(LayerNormOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};
BRASA_MODULE(LayerNorm);

struct BRASA_API RMSNormOptions {
  RMSNormOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  BRASA_ARG(std::vector<int64_t>, normalized_shape);
  /// Absent: the machine epsilon of the input's dtype.
  BRASA_ARG(std::optional<double>, eps) = std::nullopt;
  BRASA_ARG(bool, elementwise_affine) = true;
};

/// x / sqrt(mean(x^2 over normalized_shape) + eps) * weight (weight = 1 when elementwise_affine).
class BRASA_API RMSNormImpl : public Cloneable<RMSNormImpl> {
 public:
  RMSNormImpl(std::vector<int64_t> normalized_shape)  // NOLINT
      : RMSNormImpl(RMSNormOptions(std::move(normalized_shape))) {}
  explicit RMSNormImpl(RMSNormOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  RMSNormOptions options;
  Tensor weight;
};
BRASA_MODULE(RMSNorm);

struct BRASA_API GroupNormOptions {
  GroupNormOptions(int64_t num_groups, int64_t num_channels)
      : num_groups_(num_groups), num_channels_(num_channels) {}
  BRASA_ARG(int64_t, num_groups);
  BRASA_ARG(int64_t, num_channels);
  BRASA_ARG(double, eps) = 1e-5;
  BRASA_ARG(bool, affine) = true;
};

/// input [N, C, *]: normalises each of num_groups channel groups; weight = 1, bias = 0 ([C]).
/// ValueError when num_channels is not divisible by num_groups, or for a wrong channel count.
class BRASA_API GroupNormImpl : public Cloneable<GroupNormImpl> {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels)
      : GroupNormImpl(GroupNormOptions(num_groups, num_channels)) {}
  explicit GroupNormImpl(const GroupNormOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  GroupNormOptions options;
  Tensor weight;
  Tensor bias;
};
BRASA_MODULE(GroupNorm);

}  // namespace brasa::nn
