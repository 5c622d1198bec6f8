// TransformerEncoderLayer, TransformerDecoderLayer and their layer norm.

#include <sstream>

#include "brasa/core/error.h"
#include "brasa/nn/functional/activation.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/init.h"
#include "brasa/nn/modules/transformer.h"
#include "brasa/ops/factory.h"

namespace brasa::nn {
namespace {

Tensor apply_activation(const activation_t& act, const Tensor& x) {
  if (nn::holds_alternative<enumtype::kReLU>(act)) return x.relu();
  if (nn::holds_alternative<enumtype::kGELU>(act)) return functional::gelu(x);
  return nn::get<std::function<Tensor(const Tensor&)>>(act)(x);
}

void check_heads(const char* layer, int64_t d_model, int64_t nhead) {
  BRASA_CHECK(d_model > 0 && nhead > 0 && d_model % nhead == 0, layer, ": d_model (", d_model,
              ") must be positive and divisible by nhead (", nhead, ")");
}

}  // namespace

namespace detail {
void TransformerNormImpl::reset() {
  weight = register_parameter("weight", empty({d_model_}));
  bias = register_parameter("bias", empty({d_model_}));
  reset_parameters();
}
void TransformerNormImpl::reset_parameters() {
  init::ones_(weight);
  init::zeros_(bias);
}
void TransformerNormImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LayerNorm([" << d_model_ << "], eps=" << eps_
         << ", elementwise_affine=true)";
}
Tensor TransformerNormImpl::forward(const Tensor& input) {
  return functional::layer_norm(
      input, functional::LayerNormFuncOptions({d_model_}).weight(weight).bias(bias).eps(eps_));
}
}  // namespace detail

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(
    const TransformerEncoderLayerOptions& options_)
    : options(options_) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  const auto& o = options;
  check_heads("TransformerEncoderLayer", o.d_model(), o.nhead());
  self_attn = register_module(
      "self_attn",
      MultiheadAttention(MultiheadAttentionOptions(o.d_model(), o.nhead()).dropout(o.dropout())));
  linear1 = register_module("linear1", Linear(o.d_model(), o.dim_feedforward()));
  dropout = register_module("dropout", Dropout(o.dropout()));
  linear2 = register_module("linear2", Linear(o.dim_feedforward(), o.d_model()));
  norm1 = register_module("norm1", detail::TransformerNorm(o.d_model(), o.layer_norm_eps()));
  norm2 = register_module("norm2", detail::TransformerNorm(o.d_model(), o.layer_norm_eps()));
  dropout1 = register_module("dropout1", Dropout(o.dropout()));
  dropout2 = register_module("dropout2", Dropout(o.dropout()));
}

void TransformerEncoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  auto self_block = [&](const Tensor& x) {
    return dropout1(std::get<0>(self_attn(x, x, x, src_key_padding_mask, false, src_mask)));
  };
  auto ff_block = [&](const Tensor& x) {
    return dropout2(linear2(dropout(apply_activation(options.activation(), linear1(x)))));
  };
  if (options.norm_first()) {
    Tensor x = src + self_block(norm1(src));
    return x + ff_block(norm2(x));
  }
  Tensor x = norm1(src + self_block(src));
  return norm2(x + ff_block(x));
}

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(
    const TransformerDecoderLayerOptions& options_)
    : options(options_) {
  reset();
}

void TransformerDecoderLayerImpl::reset() {
  const auto& o = options;
  check_heads("TransformerDecoderLayer", o.d_model(), o.nhead());
  auto attn = MultiheadAttentionOptions(o.d_model(), o.nhead()).dropout(o.dropout());
  self_attn = register_module("self_attn", MultiheadAttention(attn));
  multihead_attn = register_module("multihead_attn", MultiheadAttention(attn));
  linear1 = register_module("linear1", Linear(o.d_model(), o.dim_feedforward()));
  dropout = register_module("dropout", Dropout(o.dropout()));
  linear2 = register_module("linear2", Linear(o.dim_feedforward(), o.d_model()));
  norm1 = register_module("norm1", detail::TransformerNorm(o.d_model(), o.layer_norm_eps()));
  norm2 = register_module("norm2", detail::TransformerNorm(o.d_model(), o.layer_norm_eps()));
  norm3 = register_module("norm3", detail::TransformerNorm(o.d_model(), o.layer_norm_eps()));
  dropout1 = register_module("dropout1", Dropout(o.dropout()));
  dropout2 = register_module("dropout2", Dropout(o.dropout()));
  dropout3 = register_module("dropout3", Dropout(o.dropout()));
}

void TransformerDecoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  multihead_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
  norm3->reset_parameters();
}

Tensor TransformerDecoderLayerImpl::activation(const Tensor& input) {
  return apply_activation(options.activation(), input);
}

Tensor TransformerDecoderLayerImpl::forward(Tensor tgt, const Tensor& memory,
                                            const Tensor& tgt_mask, const Tensor& memory_mask,
                                            const Tensor& tgt_key_padding_mask,
                                            const Tensor& memory_key_padding_mask) {
  auto self_block = [&](const Tensor& x) {
    return dropout1(std::get<0>(self_attn(x, x, x, tgt_key_padding_mask, false, tgt_mask)));
  };
  auto cross_block = [&](const Tensor& x) {
    return dropout2(std::get<0>(
        multihead_attn(x, memory, memory, memory_key_padding_mask, false, memory_mask)));
  };
  auto ff_block = [&](const Tensor& x) {
    return dropout3(linear2(dropout(activation(linear1(x)))));
  };
  if (options.norm_first()) {
    tgt = tgt + self_block(norm1(tgt));
    tgt = tgt + cross_block(norm2(tgt));
    return tgt + ff_block(norm3(tgt));
  }
  tgt = norm1(tgt + self_block(tgt));
  tgt = norm2(tgt + cross_block(tgt));
  return norm3(tgt + ff_block(tgt));
}

}  // namespace brasa::nn
