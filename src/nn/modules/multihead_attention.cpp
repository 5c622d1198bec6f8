// MultiheadAttention: its parameters in PyTorch's layout and initialisation; forward runs
// F::multi_head_attention_forward with them.

#include "brasa/nn/modules/multihead_attention.h"

#include "brasa/core/error.h"
#include "brasa/nn/functional/attention.h"
#include "brasa/nn/init.h"
#include "brasa/ops/factory.h"

namespace brasa::nn {

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions& options_)
    : options(options_) {
  reset();
}

void MultiheadAttentionImpl::reset() {
  const auto& o = options;
  BRASA_CHECK(o.embed_dim() > 0 && o.num_heads() > 0 && o.embed_dim() % o.num_heads() == 0,
              "MultiheadAttention: embed_dim (", o.embed_dim(),
              ") must be positive and divisible by num_heads (", o.num_heads(), ")");
  const int64_t e = o.embed_dim();
  _qkv_same_embed_dim = o.kdim() == e && o.vdim() == e;
  head_dim = e / o.num_heads();
  if (_qkv_same_embed_dim) {
    in_proj_weight = register_parameter("in_proj_weight", empty({3 * e, e}));
    q_proj_weight = k_proj_weight = v_proj_weight = Tensor();
  } else {
    q_proj_weight = register_parameter("q_proj_weight", empty({e, e}));
    k_proj_weight = register_parameter("k_proj_weight", empty({e, o.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", empty({e, o.vdim()}));
    in_proj_weight = Tensor();
  }
  in_proj_bias = o.bias() ? register_parameter("in_proj_bias", empty({3 * e}))
                          : register_parameter("in_proj_bias", Tensor(), false);
  if (o.add_bias_kv()) {
    bias_k = register_parameter("bias_k", empty({1, 1, e}));
    bias_v = register_parameter("bias_v", empty({1, 1, e}));
  } else {
    bias_k = bias_v = Tensor();
  }
  out_proj = register_module("out_proj", Linear(LinearOptions(e, e).bias(o.bias())));
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  if (_qkv_same_embed_dim) {
    init::xavier_uniform_(in_proj_weight);
  } else {
    init::xavier_uniform_(q_proj_weight);
    init::xavier_uniform_(k_proj_weight);
    init::xavier_uniform_(v_proj_weight);
  }
  if (in_proj_bias.defined()) {
    init::constant_(in_proj_bias, 0.0);
    init::constant_(out_proj->bias, 0.0);
  }
  if (bias_k.defined()) init::xavier_normal_(bias_k);
  if (bias_v.defined()) init::xavier_normal_(bias_v);
}

void MultiheadAttentionImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiheadAttention";  // libtorch 1.13 prints no options
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& key_padding_mask,
    bool need_weights, const Tensor& attn_mask, bool average_attn_weights) {
  const auto& o = options;
  BRASA_CHECK(
      query.defined() && key.defined() && value.defined() && query.dim() >= 2 &&
          query.size(-1) == o.embed_dim() && key.size(-1) == o.kdim() && value.size(-1) == o.vdim(),
      "MultiheadAttention: expected query/key/value feature sizes (", o.embed_dim(), ", ", o.kdim(),
      ", ", o.vdim(), "), got shapes ", query.sizes(), ", ", key.sizes(), ", ", value.sizes());
  auto f = functional::MultiheadAttentionForwardFuncOptions(
               o.embed_dim(), o.num_heads(), in_proj_weight, in_proj_bias, bias_k, bias_v,
               o.add_zero_attn(), o.dropout(), out_proj->weight, out_proj->bias)
               .training(is_training())
               .key_padding_mask(key_padding_mask)
               .need_weights(need_weights)
               .attn_mask(attn_mask)
               .average_attn_weights(average_attn_weights);
  if (!_qkv_same_embed_dim) {
    f.use_separate_proj_weight(true)
        .q_proj_weight(q_proj_weight)
        .k_proj_weight(k_proj_weight)
        .v_proj_weight(v_proj_weight);
  }
  return functional::multi_head_attention_forward(query, key, value, f);
}

}  // namespace brasa::nn
