// F::one_hot, F::embedding and F::embedding_bag: libtorch's argument checks and max_norm
// renormalisation in front of the brasa::one_hot / embedding / embedding_bag ops.

#include "brasa/nn/functional/embedding.h"

#include <string>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa::nn::functional {
namespace {

/// padding_idx in [-rows, rows) made non-negative; -1 when absent.
int64_t checked_padding_idx(std::optional<int64_t> padding_idx, const Tensor& weight,
                            const char* op) {
  if (!padding_idx) return -1;
  const int64_t rows = weight.size(0);
  BRASA_CHECK(*padding_idx >= -rows && *padding_idx < rows, op, ": padding_idx ", *padding_idx,
              " must be within num_embeddings (", rows, ")");
  return *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
}

void check_weight(const Tensor& input, const Tensor& weight, const char* op) {
  BRASA_CHECK(input.defined() && weight.defined(), op, ": input and weight must be defined");
  BRASA_CHECK(weight.dim() == 2, op, ": weight must be 2-d [num_embeddings, embedding_dim], got ",
              weight.sizes());
}

void renorm(const Tensor& weight, const Tensor& input, std::optional<double> max_norm,
            double norm_type) {
  if (!max_norm) return;
  NoGradGuard no_grad;
  embedding_renorm_(weight, input.contiguous(), *max_norm, norm_type);
}

}  // namespace

Tensor one_hot(const Tensor& tensor, int64_t num_classes) {
  return brasa::one_hot(tensor, num_classes);
}

Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options) {
  check_weight(input, weight, "embedding");
  const int64_t padding_idx = checked_padding_idx(options.padding_idx(), weight, "embedding");
  renorm(weight, input, options.max_norm(), options.norm_type());
  return brasa::embedding(weight, input, padding_idx, options.scale_grad_by_freq(),
                          options.sparse());
}

Tensor embedding_bag(const Tensor& input, const Tensor& weight,
                     const EmbeddingBagFuncOptions& options) {
  const char* op = "embedding_bag";
  check_weight(input, weight, op);
  const Tensor& offsets = options.offsets();
  const Tensor& per_sample_weights = options.per_sample_weights();
  BRASA_CHECK(!per_sample_weights.defined() || per_sample_weights.sizes() == input.sizes(), op,
              ": per_sample_weights (", per_sample_weights.sizes(),
              ") must have the same shape as the input (", input.sizes(), ")");
  if (input.dim() == 2) {
    BRASA_CHECK(!offsets.defined(), op,
                ": offsets must be absent for a 2-d input (a bag per row), got offsets of shape ",
                offsets.sizes());
  } else {
    BRASA_CHECK(input.dim() == 1, op, ": input has to be 1-d or 2-d, got shape ", input.sizes());
    BRASA_CHECK(offsets.defined() && offsets.dim() == 1, op,
                ": a 1-d input needs 1-d offsets, got ",
                offsets.defined() ? "offsets of shape " : "no offsets",
                offsets.defined() ? offsets.sizes() : IntArrayRef{});
    if (offsets.numel() > 0) {
      const auto first = offsets[0].item<int64_t>(), last = offsets[-1].item<int64_t>();
      BRASA_CHECK(first == 0, op, ": offsets[0] has to be 0 (the first bag starts at position 0), ",
                  "got ", first);
      BRASA_CHECK(last <= input.size(0), op, ": offsets[-1] (", last,
                  ") can not be greater than the input's length (", input.size(0), ")");
    }
  }
  std::string mode = "mean";
  if (nn::holds_alternative<enumtype::kSum>(options.mode())) mode = "sum";
  if (nn::holds_alternative<enumtype::kMax>(options.mode())) {
    mode = "max";
    BRASA_CHECK(!options.scale_grad_by_freq(), op,
                ": max mode does not support scaling the gradient by the frequency");
    BRASA_CHECK(!options.sparse(), op, ": max mode does not support sparse weights");
  }
  BRASA_CHECK(!per_sample_weights.defined() || mode == "sum", op,
              ": per_sample_weights is only supported for mode kSum, got mode k",
              mode == "max" ? "Max" : "Mean");
  const int64_t padding_idx = checked_padding_idx(options.padding_idx(), weight, op);
  renorm(weight, input, options.max_norm(), options.norm_type());
  // A 2-d input is a bag per row; its per-sample weights go with the flattened rows.
  const Tensor weights_flat = per_sample_weights.defined() && input.dim() == 2
                                  ? per_sample_weights.reshape({-1})
                                  : per_sample_weights;
  return brasa::embedding_bag(weight, input, offsets, mode, weights_flat,
                              options.include_last_offset(),
                              padding_idx < 0 ? std::nullopt : std::optional<int64_t>(padding_idx));
}

}  // namespace brasa::nn::functional
