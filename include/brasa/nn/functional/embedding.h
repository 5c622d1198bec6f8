#pragma once
// F::one_hot, F::embedding and F::embedding_bag with libtorch's option structs
// (`F::embedding(idx, w, F::EmbeddingFuncOptions().padding_idx(0))`). The Embedding and
// EmbeddingBag modules run these with their options, so module and functional agree. ValueError
// naming the op for a padding_idx outside [-rows, rows), bad offsets or a mode that does not
// take the options given; IndexError for an index out of range.

#include <cstdint>
#include <optional>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/reduction.h"

namespace brasa::nn {

using EmbeddingBagMode = EnumVariant<enumtype::kSum, enumtype::kMean, enumtype::kMax>;

namespace functional {

struct BRASA_API EmbeddingFuncOptions {
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(bool, sparse) = false;
};

struct BRASA_API EmbeddingBagFuncOptions {
  BRASA_ARG(Tensor, offsets) = Tensor();
  BRASA_ARG(std::optional<double>, max_norm) = std::nullopt;
  BRASA_ARG(double, norm_type) = 2.;
  BRASA_ARG(bool, scale_grad_by_freq) = false;
  BRASA_ARG(EmbeddingBagMode, mode) = enumtype::kMean();
  BRASA_ARG(bool, sparse) = false;
  BRASA_ARG(Tensor, per_sample_weights) = Tensor();
  BRASA_ARG(bool, include_last_offset) = false;
  BRASA_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
};

/// int64 [..., num_classes] rows of a class tensor (num_classes -1: max + 1): brasa::one_hot.
BRASA_API Tensor one_hot(const Tensor& tensor, int64_t num_classes = -1);

/// The rows of weight [rows, dim] at input (int64/int32, any shape) -> input.sizes() + [dim].
/// A negative padding_idx counts from the end; with max_norm, the looked-up rows of weight are
/// first renormalised in place (no grad), as libtorch does.
BRASA_API Tensor embedding(const Tensor& input, const Tensor& weight,
                           const EmbeddingFuncOptions& options = {});

/// Per-bag sum / mean / max of the rows of weight: input 2-d (a bag per row, no offsets) or 1-d
/// with offsets (offsets[0] == 0, offsets[-1] <= input.size(0)) -> [bags, dim].
/// per_sample_weights (the input's shape) only with kSum; kMax refuses scale_grad_by_freq and
/// sparse.
BRASA_API Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                               const EmbeddingBagFuncOptions& options = {});

}  // namespace functional
}  // namespace brasa::nn
