// MultiheadAttention: projections, mask merging, attention (explicit when the weights are needed,
// fused scaled_dot_product_attention otherwise), output projection.

#include "brasa/nn/modules/multihead_attention.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "brasa/core/error.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/init.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"

namespace brasa::nn {
namespace {

std::string shape_str(IntArrayRef sizes) {
  std::ostringstream s;
  s << sizes;
  return s.str();
}

/// Appends one column along the last dim: false for bool masks, 0 for additive ones.
Tensor pad_last(const Tensor& mask) {
  if (!mask.defined()) return mask;
  std::vector<int64_t> shape(mask.sizes().begin(), mask.sizes().end());
  shape.back() = 1;
  return cat({mask, zeros(shape, mask.options())}, -1);
}

/// bool (true = masked) -> additive float of `dtype`; float masks are cast.
Tensor to_additive(const Tensor& mask, ScalarType dtype) {
  if (mask.scalar_type() == kBool) {
    return zeros(mask.sizes(), TensorOptions(dtype).device(mask.device()))
        .masked_fill(mask, -std::numeric_limits<double>::infinity());
  }
  return mask.to(dtype);
}

}  // namespace

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
  stream << "torch::nn::MultiheadAttention(embed_dim=" << options.embed_dim()
         << ", num_heads=" << options.num_heads() << ")";
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& key_padding_mask,
    bool need_weights, const Tensor& attn_mask, bool average_attn_weights) {
  const auto& o = options;
  const char* op = "MultiheadAttention";
  BRASA_CHECK(query.dim() == 3 || query.dim() == 2, op,
              ": query should be 3-D [L, N, E] or unbatched 2-D [L, E], got shape ",
              shape_str(query.sizes()));
  const bool batched = query.dim() == 3;
  BRASA_CHECK(key.dim() == query.dim() && value.dim() == query.dim(), op,
              ": query, key and value must have the same number of dims, got ",
              shape_str(query.sizes()), ", ", shape_str(key.sizes()), ", ",
              shape_str(value.sizes()));
  Tensor q_in = batched ? query : query.unsqueeze(1);
  Tensor k_in = batched ? key : key.unsqueeze(1);
  Tensor v_in = batched ? value : value.unsqueeze(1);
  Tensor kpm =
      key_padding_mask.defined() && !batched ? key_padding_mask.unsqueeze(0) : key_padding_mask;
  const int64_t tgt_len = q_in.size(0), bsz = q_in.size(1), e = o.embed_dim();
  const int64_t heads = o.num_heads();
  BRASA_CHECK(q_in.size(2) == e && k_in.size(2) == o.kdim() && v_in.size(2) == o.vdim(), op,
              ": expected query/key/value feature sizes (", e, ", ", o.kdim(), ", ", o.vdim(),
              "), got shapes ", shape_str(query.sizes()), ", ", shape_str(key.sizes()), ", ",
              shape_str(value.sizes()));
  BRASA_CHECK(k_in.size(0) == v_in.size(0) && k_in.size(1) == bsz && v_in.size(1) == bsz, op,
              ": key ", shape_str(key.sizes()), " and value ", shape_str(value.sizes()),
              " must share sequence length and batch with query ", shape_str(query.sizes()));

  Tensor q, k, v;
  std::vector<Tensor> b =
      in_proj_bias.defined() ? in_proj_bias.chunk(3, 0) : std::vector<Tensor>(3);
  if (_qkv_same_embed_dim && query.is_same(key) && key.is_same(value)) {
    auto qkv = linear(q_in, in_proj_weight, in_proj_bias).chunk(3, -1);
    q = qkv[0], k = qkv[1], v = qkv[2];
  } else {
    std::vector<Tensor> w = _qkv_same_embed_dim
                                ? in_proj_weight.chunk(3, 0)
                                : std::vector<Tensor>{q_proj_weight, k_proj_weight, v_proj_weight};
    q = linear(q_in, w[0], b[0]);
    k = linear(k_in, w[1], b[1]);
    v = linear(v_in, w[2], b[2]);
  }
  Tensor mask = attn_mask;
  if (mask.defined()) {
    if (mask.dim() == 2) {
      BRASA_CHECK(mask.size(0) == tgt_len && mask.size(1) == k_in.size(0), op,
                  ": 2-D attn_mask should be [", tgt_len, ", ", k_in.size(0), "], got ",
                  shape_str(mask.sizes()));
      mask = mask.unsqueeze(0);
    } else {
      BRASA_CHECK(mask.dim() == 3 && mask.size(0) == bsz * heads && mask.size(1) == tgt_len &&
                      mask.size(2) == k_in.size(0),
                  op, ": 3-D attn_mask should be [", bsz * heads, ", ", tgt_len, ", ", k_in.size(0),
                  "], got ", shape_str(mask.sizes()));
    }
  }
  if (kpm.defined()) {
    BRASA_CHECK(kpm.dim() == 2 && kpm.size(0) == bsz && kpm.size(1) == k_in.size(0), op,
                ": key_padding_mask should be [", bsz, ", ", k_in.size(0), "], got ",
                shape_str(key_padding_mask.sizes()));
  }
  if (bias_k.defined()) {
    k = cat({k, bias_k.expand({1, bsz, e})}, 0);
    v = cat({v, bias_v.expand({1, bsz, e})}, 0);
    mask = pad_last(mask);
    kpm = pad_last(kpm);
  }
  q = q.contiguous().view({tgt_len, bsz * heads, head_dim}).transpose(0, 1);
  k = k.contiguous().view({k.size(0), bsz * heads, head_dim}).transpose(0, 1);
  v = v.contiguous().view({v.size(0), bsz * heads, head_dim}).transpose(0, 1);
  if (o.add_zero_attn()) {
    k = cat({k, zeros({bsz * heads, 1, head_dim}, k.options())}, 1);
    v = cat({v, zeros({bsz * heads, 1, head_dim}, v.options())}, 1);
    mask = pad_last(mask);
    kpm = pad_last(kpm);
  }
  const int64_t src_len = k.size(1);
  Tensor merged = mask.defined() ? to_additive(mask, q.scalar_type()) : Tensor();
  if (kpm.defined()) {
    Tensor pad = to_additive(kpm, q.scalar_type())
                     .view({bsz, 1, 1, src_len})
                     .expand({bsz, heads, 1, src_len})
                     .reshape({bsz * heads, 1, src_len});
    merged = merged.defined() ? merged + pad : pad;
  }
  const double p = is_training() ? o.dropout() : 0.0;
  Tensor out, weights;
  if (need_weights) {
    Tensor scores = (q * (1.0 / std::sqrt(static_cast<double>(head_dim)))).bmm(k.transpose(1, 2));
    if (merged.defined()) scores = scores + merged;
    weights = scores.softmax(-1);
    Tensor probs =
        p > 0 ? functional::dropout(weights, functional::DropoutFuncOptions().p(p)) : weights;
    out = probs.bmm(v);
  } else {
    out = scaled_dot_product_attention(q, k, v, merged, p);
  }
  out = out.transpose(0, 1).contiguous().view({tgt_len * bsz, e});
  out = linear(out, out_proj->weight, out_proj->bias).view({tgt_len, bsz, e});
  if (weights.defined()) {
    weights = weights.view({bsz, heads, tgt_len, src_len});
    if (average_attn_weights) weights = weights.mean({1});
  }
  if (!batched) {
    out = out.squeeze(1);
    if (weights.defined()) weights = weights.squeeze(0);
  }
  return {out, weights};
}

}  // namespace brasa::nn
