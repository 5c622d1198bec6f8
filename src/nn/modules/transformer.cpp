// TransformerEncoder, TransformerDecoder and Transformer.

#include "brasa/nn/modules/transformer.h"

#include <limits>
#include <sstream>

#include "brasa/core/error.h"
#include "brasa/nn/init.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa::nn {

TransformerEncoderOptions::TransformerEncoderOptions(TransformerEncoderLayer encoder_layer,
                                                     int64_t num_layers)
    : encoder_layer_(std::move(encoder_layer)), num_layers_(num_layers) {}
TransformerEncoderOptions::TransformerEncoderOptions(
    const TransformerEncoderLayerOptions& encoder_layer_options, int64_t num_layers)
    : encoder_layer_(TransformerEncoderLayer(encoder_layer_options)), num_layers_(num_layers) {}

TransformerDecoderOptions::TransformerDecoderOptions(TransformerDecoderLayer decoder_layer,
                                                     int64_t num_layers)
    : decoder_layer_(std::move(decoder_layer)), num_layers_(num_layers) {}
TransformerDecoderOptions::TransformerDecoderOptions(
    const TransformerDecoderLayerOptions& decoder_layer_options, int64_t num_layers)
    : decoder_layer_(TransformerDecoderLayer(decoder_layer_options)), num_layers_(num_layers) {}

TransformerEncoderImpl::TransformerEncoderImpl(TransformerEncoderOptions options_)
    : options(std::move(options_)) {
  reset();
}

void TransformerEncoderImpl::reset() {
  BRASA_CHECK(!options.encoder_layer().is_empty() && options.num_layers() >= 0,
              "TransformerEncoder: needs an encoder_layer and num_layers >= 0, got ",
              options.num_layers());
  layers = register_module("layers", ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) {
    layers->push_back(options.encoder_layer()->clone());
  }
  if (!options.norm().is_empty()) {
    norm = options.norm().clone();
    register_module("norm", norm.ptr());
  }
}

void TransformerEncoderImpl::reset_parameters() {
  for (size_t i = 0; i < layers->size(); ++i) {
    layers->at<TransformerEncoderLayerImpl>(i).reset_parameters();
  }
}

Tensor TransformerEncoderImpl::forward(const Tensor& src, const Tensor& src_mask,
                                       const Tensor& src_key_padding_mask) {
  Tensor x = src;
  for (size_t i = 0; i < layers->size(); ++i) {
    x = layers->at<TransformerEncoderLayerImpl>(i).forward(x, src_mask, src_key_padding_mask);
  }
  return norm.is_empty() ? x : norm.forward<Tensor>(x);
}

TransformerDecoderImpl::TransformerDecoderImpl(TransformerDecoderOptions options_)
    : options(std::move(options_)) {
  reset();
}

void TransformerDecoderImpl::reset() {
  BRASA_CHECK(!options.decoder_layer().is_empty() && options.num_layers() >= 0,
              "TransformerDecoder: needs a decoder_layer and num_layers >= 0, got ",
              options.num_layers());
  layers = register_module("layers", ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) {
    layers->push_back(options.decoder_layer()->clone());
  }
  if (!options.norm().is_empty()) {
    norm = options.norm().clone();
    register_module("norm", norm.ptr());
  }
}

void TransformerDecoderImpl::reset_parameters() {
  for (size_t i = 0; i < layers->size(); ++i) {
    layers->at<TransformerDecoderLayerImpl>(i).reset_parameters();
  }
}

Tensor TransformerDecoderImpl::forward(const Tensor& tgt, const Tensor& memory,
                                       const Tensor& tgt_mask, const Tensor& memory_mask,
                                       const Tensor& tgt_key_padding_mask,
                                       const Tensor& memory_key_padding_mask) {
  Tensor x = tgt;
  for (size_t i = 0; i < layers->size(); ++i) {
    x = layers->at<TransformerDecoderLayerImpl>(i).forward(
        x, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask);
  }
  return norm.is_empty() ? x : norm.forward<Tensor>(x);
}

TransformerImpl::TransformerImpl(TransformerOptions options_) : options(std::move(options_)) {
  reset();
}

void TransformerImpl::reset() {
  const auto& o = options;
  if (o.custom_encoder().is_empty()) {
    auto layer = TransformerEncoderLayerOptions(o.d_model(), o.nhead())
                     .dim_feedforward(o.dim_feedforward())
                     .dropout(o.dropout())
                     .activation(o.activation());
    encoder = AnyModule(
        TransformerEncoder(TransformerEncoderOptions(layer, o.num_encoder_layers())
                               .norm(AnyModule(detail::TransformerNorm(o.d_model(), 1e-5)))));
  } else {
    encoder = o.custom_encoder().clone();
  }
  register_module("encoder", encoder.ptr());
  if (o.custom_decoder().is_empty()) {
    auto layer = TransformerDecoderLayerOptions(o.d_model(), o.nhead())
                     .dim_feedforward(o.dim_feedforward())
                     .dropout(o.dropout())
                     .activation(o.activation());
    decoder = AnyModule(
        TransformerDecoder(TransformerDecoderOptions(layer, o.num_decoder_layers())
                               .norm(AnyModule(detail::TransformerNorm(o.d_model(), 1e-5)))));
  } else {
    decoder = o.custom_decoder().clone();
  }
  register_module("decoder", decoder.ptr());
  reset_parameters();
}

void TransformerImpl::reset_parameters() {
  for (auto& p : parameters()) {
    if (p.dim() > 1) init::xavier_uniform_(p);
  }
}

Tensor TransformerImpl::forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask,
                                const Tensor& tgt_mask, const Tensor& memory_mask,
                                const Tensor& src_key_padding_mask,
                                const Tensor& tgt_key_padding_mask,
                                const Tensor& memory_key_padding_mask) {
  std::ostringstream shapes;
  shapes << "src " << src.sizes() << ", tgt " << tgt.sizes();
  // The messages keep libtorch's words, which its tests match.
  BRASA_CHECK(src.dim() == 3 && tgt.dim() == 3, "Transformer: src and tgt should have 3 dimensions",
              ", got ", shapes.str());
  BRASA_CHECK(src.size(1) == tgt.size(1), "Transformer: src and tgt should have equal batch size (",
              shapes.str(), ")");
  BRASA_CHECK(src.size(2) == options.d_model() && tgt.size(2) == options.d_model(),
              "Transformer: src and tgt should have same feature size as d_model (",
              options.d_model(), "; ", shapes.str(), ")");
  Tensor memory = encoder.forward<Tensor>(src, src_mask, src_key_padding_mask);
  return decoder.forward<Tensor>(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                 memory_key_padding_mask);
}

Tensor TransformerImpl::generate_square_subsequent_mask(int64_t sz) {
  BRASA_CHECK(sz >= 0, "Transformer::generate_square_subsequent_mask: size must be >= 0, got ", sz);
  return triu(full({sz, sz}, -std::numeric_limits<double>::infinity()), 1);
}

}  // namespace brasa::nn
