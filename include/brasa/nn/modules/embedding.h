#pragma once
// Embedding and EmbeddingBag: lookup tables of num_embeddings rows of embedding_dim values,
// weight ~ N(0, 1) (the padding_idx row zeroed), with libtorch's options and from_pretrained.
// forward runs F::embedding / F::embedding_bag (nn/functional/embedding.h) with the options.

#include <cstdint>
#include <optional>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/embedding.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/pimpl.h"
#include "brasa/nn/reduction.h"

namespace brasa::nn {

struct BRASA_API EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  BRASA_ARG(int64_t, num_embeddings);
  BRASA_ARG(int64_t, embedding_dim);
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(bool, sparse) = false;
  /// Initial weight [num_embeddings, embedding_dim] used instead of a random one.
  BRASA_ARG(Tensor, _weight) = Tensor();
};

struct BRASA_API EmbeddingFromPretrainedOptions {
  BRASA_ARG(bool, freeze) = true;
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(bool, sparse) = false;
};

/// indices (int64/int32, any shape) -> indices.sizes() + [embedding_dim]. IndexError for an
/// index out of range; ValueError for a padding_idx outside [-num_embeddings, num_embeddings).
class BRASA_API EmbeddingImpl : public Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingImpl(EmbeddingOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& indices);

  EmbeddingOptions options;
  Tensor weight;
};

class BRASA_API Embedding : public ModuleHolder<EmbeddingImpl> {
 public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;
  /// An Embedding whose weight is `embeddings` (2-d, ValueError otherwise); frozen by default.
  static Embedding from_pretrained(const Tensor& embeddings,
                                   const EmbeddingFromPretrainedOptions& options = {});
};

struct BRASA_API EmbeddingBagOptions {
  EmbeddingBagOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  BRASA_ARG(int64_t, num_embeddings);
  BRASA_ARG(int64_t, embedding_dim);
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(EmbeddingBagMode, mode) = enumtype::kMean();
  BRASA_ARG(bool, sparse) = false;
  BRASA_ARG(Tensor, _weight) = Tensor();
  BRASA_ARG(bool, include_last_offset) = false;
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

struct BRASA_API EmbeddingBagFromPretrainedOptions {
  BRASA_ARG(bool, freeze) = true;
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(EmbeddingBagMode, mode) = enumtype::kMean();
  BRASA_ARG(bool, sparse) = false;
  BRASA_ARG(bool, include_last_offset) = false;
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

/// Sums/means/maxes bags of embedding rows: see F::embedding_bag for input/offsets.
class BRASA_API EmbeddingBagImpl : public Cloneable<EmbeddingBagImpl> {
 public:
  EmbeddingBagImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingBagImpl(EmbeddingBagOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingBagImpl(EmbeddingBagOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& offsets = {},
                 const Tensor& per_sample_weights = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  EmbeddingBagOptions options;
  Tensor weight;
};

class BRASA_API EmbeddingBag : public ModuleHolder<EmbeddingBagImpl> {
 public:
  using ModuleHolder<EmbeddingBagImpl>::ModuleHolder;
  using Impl = EmbeddingBagImpl;
  /// An EmbeddingBag whose weight is `embeddings` (2-d, ValueError otherwise); frozen by default.
  static EmbeddingBag from_pretrained(const Tensor& embeddings,
                                      const EmbeddingBagFromPretrainedOptions& options = {});
};

}  // namespace brasa::nn
