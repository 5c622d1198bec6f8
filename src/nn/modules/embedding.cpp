// Embedding and EmbeddingBag: parameters and options; forward is F::embedding / F::embedding_bag.

#include "brasa/nn/modules/embedding.h"

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/nn/init.h"
#include "brasa/ops/factory.h"

namespace brasa::nn {
namespace {

std::optional<int64_t> checked_padding_idx(std::optional<int64_t> padding_idx, int64_t num,
                                           const char* op) {
  if (!padding_idx) return std::nullopt;
  BRASA_CHECK(*padding_idx >= -num && *padding_idx < num, op, ": padding_idx ", *padding_idx,
              " must be within num_embeddings (", num, ")");
  return *padding_idx < 0 ? *padding_idx + num : *padding_idx;
}

Tensor initial_weight(const Tensor& given, int64_t num, int64_t dim, const char* op) {
  if (!given.defined()) return empty({num, dim});
  BRASA_CHECK(given.dim() == 2 && given.size(0) == num && given.size(1) == dim, op,
              ": _weight must have shape [", num, ", ", dim, "], got ", given.sizes());
  return given;
}

}  // namespace

EmbeddingImpl::EmbeddingImpl(EmbeddingOptions options_) : options(std::move(options_)) { reset(); }

void EmbeddingImpl::reset() {
  options.padding_idx(
      checked_padding_idx(options.padding_idx(), options.num_embeddings(), "Embedding"));
  const bool given = options._weight().defined();
  weight = register_parameter("weight", initial_weight(options._weight(), options.num_embeddings(),
                                                       options.embedding_dim(), "Embedding"));
  if (!given) reset_parameters();
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx()) {
    NoGradGuard no_grad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Embedding(num_embeddings=" << options.num_embeddings()
    << ", embedding_dim=" << options.embedding_dim();
  if (options.padding_idx()) s << ", padding_idx=" << *options.padding_idx();
  if (options.max_norm()) s << ", max_norm=" << *options.max_norm();
  if (options.norm_type() != 2) s << ", norm_type=" << options.norm_type();
  if (options.scale_grad_by_freq()) s << ", scale_grad_by_freq=true";
  if (options.sparse()) s << ", sparse=true";
  s << ")";
}

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return functional::embedding(indices, weight,
                               functional::EmbeddingFuncOptions()
                                   .padding_idx(options.padding_idx())
                                   .max_norm(options.max_norm())
                                   .norm_type(options.norm_type())
                                   .scale_grad_by_freq(options.scale_grad_by_freq())
                                   .sparse(options.sparse()));
}

Embedding Embedding::from_pretrained(const Tensor& embeddings,
                                     const EmbeddingFromPretrainedOptions& options) {
  BRASA_CHECK(embeddings.dim() == 2, "Embedding::from_pretrained: embeddings must be 2-d, got ",
              embeddings.dim(), " dims");
  Embedding module(EmbeddingOptions(embeddings.size(0), embeddings.size(1))
                       ._weight(embeddings)
                       .padding_idx(options.padding_idx())
                       .max_norm(options.max_norm())
                       .norm_type(options.norm_type())
                       .scale_grad_by_freq(options.scale_grad_by_freq())
                       .sparse(options.sparse()));
  module->weight.set_requires_grad(!options.freeze());
  return module;
}

EmbeddingBagImpl::EmbeddingBagImpl(EmbeddingBagOptions options_) : options(std::move(options_)) {
  reset();
}

void EmbeddingBagImpl::reset() {
  options.padding_idx(
      checked_padding_idx(options.padding_idx(), options.num_embeddings(), "EmbeddingBag"));
  const bool given = options._weight().defined();
  weight = register_parameter("weight", initial_weight(options._weight(), options.num_embeddings(),
                                                       options.embedding_dim(), "EmbeddingBag"));
  if (!given) reset_parameters();
}

void EmbeddingBagImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx()) {
    NoGradGuard no_grad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingBagImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::EmbeddingBag(num_embeddings=" << options.num_embeddings()
    << ", embedding_dim=" << options.embedding_dim();
  if (options.max_norm()) s << ", max_norm=" << *options.max_norm();
  if (options.norm_type() != 2) s << ", norm_type=" << options.norm_type();
  if (options.scale_grad_by_freq()) s << ", scale_grad_by_freq=true";
  if (options.sparse()) s << ", sparse=true";
  if (!nn::holds_alternative<enumtype::kMean>(options.mode()))
    s << ", mode=" << (nn::holds_alternative<enumtype::kSum>(options.mode()) ? "kSum" : "kMax");
  if (options.include_last_offset()) s << ", include_last_offset=true";
  if (options.padding_idx()) s << ", padding_idx=" << *options.padding_idx();
  s << ")";
}

Tensor EmbeddingBagImpl::forward(const Tensor& input, const Tensor& offsets,
                                 const Tensor& per_sample_weights) {
  return functional::embedding_bag(input, weight,
                                   functional::EmbeddingBagFuncOptions()
                                       .offsets(offsets)
                                       .max_norm(options.max_norm())
                                       .norm_type(options.norm_type())
                                       .scale_grad_by_freq(options.scale_grad_by_freq())
                                       .mode(options.mode())
                                       .sparse(options.sparse())
                                       .per_sample_weights(per_sample_weights)
                                       .include_last_offset(options.include_last_offset())
                                       .padding_idx(options.padding_idx()));
}

EmbeddingBag EmbeddingBag::from_pretrained(const Tensor& embeddings,
                                           const EmbeddingBagFromPretrainedOptions& options) {
  BRASA_CHECK(embeddings.dim() == 2, "EmbeddingBag::from_pretrained: embeddings must be 2-d, got ",
              embeddings.dim(), " dims");
  EmbeddingBag module(EmbeddingBagOptions(embeddings.size(0), embeddings.size(1))
                          ._weight(embeddings)
                          .max_norm(options.max_norm())
                          .norm_type(options.norm_type())
                          .scale_grad_by_freq(options.scale_grad_by_freq())
                          .mode(options.mode())
                          .sparse(options.sparse())
                          .include_last_offset(options.include_last_offset())
                          .padding_idx(options.padding_idx()));
  module->weight.set_requires_grad(!options.freeze());
  return module;
}

}  // namespace brasa::nn
