// F::multi_head_attention_forward: projections, bias_k / bias_v and zero attention, mask merging,
// attention (explicit when the weights are wanted, fused scaled_dot_product_attention otherwise)
// and the output projection. MultiheadAttention's forward is this function.

#include "brasa/nn/functional/attention.h"

#include <cmath>
#include <limits>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"

namespace brasa::nn::functional {
namespace {

constexpr const char* kOp = "multi_head_attention_forward";

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

IntArrayRef shape_of(const Tensor& t) { return t.defined() ? t.sizes() : IntArrayRef{}; }

void check_weight(const Tensor& w, const char* name, int64_t rows, int64_t cols) {
  BRASA_CHECK(w.defined() && w.dim() == 2 && w.size(0) == rows && w.size(1) == cols, kOp, ": ",
              name, " should be [", rows, ", ", cols, "], got ", shape_of(w));
}

/// q, k, v projected from the inputs [len, N, *].
std::vector<Tensor> project(const Tensor& query, const Tensor& key, const Tensor& value,
                            const Tensor& q_in, const Tensor& k_in, const Tensor& v_in, int64_t e,
                            const MultiheadAttentionForwardFuncOptions& o) {
  const Tensor& bias = o.in_proj_bias();
  BRASA_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == 3 * e), kOp,
              ": in_proj_bias should be [", 3 * e, "], got ", shape_of(bias));
  std::vector<Tensor> b = bias.defined() ? bias.chunk(3, 0) : std::vector<Tensor>(3);
  std::vector<Tensor> w;
  if (o.use_separate_proj_weight()) {
    check_weight(o.q_proj_weight(), "q_proj_weight", e, q_in.size(2));
    check_weight(o.k_proj_weight(), "k_proj_weight", e, k_in.size(2));
    check_weight(o.v_proj_weight(), "v_proj_weight", e, v_in.size(2));
    w = {o.q_proj_weight(), o.k_proj_weight(), o.v_proj_weight()};
  } else {
    check_weight(o.in_proj_weight(), "in_proj_weight", 3 * e, e);
    BRASA_CHECK(k_in.size(2) == e && v_in.size(2) == e, kOp, ": key and value of embedding dim ", e,
                " are needed with a packed in_proj_weight (else use_separate_proj_weight), got ",
                key.sizes(), " and ", value.sizes());
    if (query.is_same(key) && key.is_same(value)) {
      return linear(q_in, o.in_proj_weight(), bias).chunk(3, -1);
    }
    w = o.in_proj_weight().chunk(3, 0);
  }
  return {linear(q_in, w[0], b[0]), linear(k_in, w[1], b[1]), linear(v_in, w[2], b[2])};
}

/// A static key or value [N*H, S, head_dim] in place of the projected one.
Tensor static_kv(const Tensor& given, const Tensor& projected, int64_t bh, int64_t head_dim,
                 const char* name) {
  if (!given.defined()) return projected;
  BRASA_CHECK(given.dim() == 3 && given.size(0) == bh && given.size(2) == head_dim, kOp, ": ", name,
              " should be [", bh, ", S, ", head_dim, "], got ", given.sizes());
  return given;
}

}  // namespace

MultiheadAttentionForwardFuncOptions::MultiheadAttentionForwardFuncOptions(
    int64_t embed_dim_to_check, int64_t num_heads, Tensor in_proj_weight, Tensor in_proj_bias,
    Tensor bias_k, Tensor bias_v, bool add_zero_attn, double dropout_p, Tensor out_proj_weight,
    Tensor out_proj_bias)
    : embed_dim_to_check_(embed_dim_to_check),
      num_heads_(num_heads),
      in_proj_weight_(std::move(in_proj_weight)),
      in_proj_bias_(std::move(in_proj_bias)),
      bias_k_(std::move(bias_k)),
      bias_v_(std::move(bias_v)),
      add_zero_attn_(add_zero_attn),
      dropout_p_(dropout_p),
      out_proj_weight_(std::move(out_proj_weight)),
      out_proj_bias_(std::move(out_proj_bias)) {}

std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value,
    const MultiheadAttentionForwardFuncOptions& o) {
  BRASA_CHECK(query.defined() && key.defined() && value.defined(), kOp,
              ": query, key and value must be defined");
  BRASA_CHECK(query.dim() == 3 || query.dim() == 2, kOp,
              ": query should be 3-D [L, N, E] or unbatched 2-D [L, E], got shape ", query.sizes());
  const bool batched = query.dim() == 3;
  BRASA_CHECK(key.dim() == query.dim() && value.dim() == query.dim(), kOp,
              ": query, key and value must have the same number of dims, got ", query.sizes(), ", ",
              key.sizes(), ", ", value.sizes());
  Tensor q_in = batched ? query : query.unsqueeze(1);
  Tensor k_in = batched ? key : key.unsqueeze(1);
  Tensor v_in = batched ? value : value.unsqueeze(1);
  const Tensor& kpm_given = o.key_padding_mask();
  Tensor kpm = kpm_given.defined() && !batched ? kpm_given.unsqueeze(0) : kpm_given;
  const int64_t tgt_len = q_in.size(0), bsz = q_in.size(1), e = q_in.size(2);
  const int64_t heads = o.num_heads();
  BRASA_CHECK(e == o.embed_dim_to_check(), kOp, ": query's embedding dim ", e,
              " differs from embed_dim_to_check ", o.embed_dim_to_check());
  BRASA_CHECK(heads > 0 && e % heads == 0, kOp, ": embed_dim (", e,
              ") must be divisible by num_heads (", heads, ")");
  const int64_t head_dim = e / heads;
  BRASA_CHECK(k_in.size(0) == v_in.size(0) && k_in.size(1) == bsz && v_in.size(1) == bsz, kOp,
              ": key ", key.sizes(), " and value ", value.sizes(),
              " must share sequence length and batch with query ", query.sizes());

  std::vector<Tensor> qkv = project(query, key, value, q_in, k_in, v_in, e, o);
  Tensor q = qkv[0], k = qkv[1], v = qkv[2];
  Tensor mask = o.attn_mask();
  if (mask.defined()) {
    if (mask.dim() == 2) {
      BRASA_CHECK(mask.size(0) == tgt_len && mask.size(1) == k_in.size(0), kOp,
                  ": 2-D attn_mask should be [", tgt_len, ", ", k_in.size(0), "], got ",
                  mask.sizes());
      mask = mask.unsqueeze(0);
    } else {
      BRASA_CHECK(mask.dim() == 3 && mask.size(0) == bsz * heads && mask.size(1) == tgt_len &&
                      mask.size(2) == k_in.size(0),
                  kOp, ": 3-D attn_mask should be [", bsz * heads, ", ", tgt_len, ", ",
                  k_in.size(0), "], got ", mask.sizes());
    }
  }
  if (kpm.defined()) {
    BRASA_CHECK(kpm.dim() == 2 && kpm.size(0) == bsz && kpm.size(1) == k_in.size(0), kOp,
                ": key_padding_mask should be [", bsz, ", ", k_in.size(0), "], got ",
                kpm_given.sizes());
  }
  const Tensor &bias_k = o.bias_k(), &bias_v = o.bias_v();
  BRASA_CHECK(bias_k.defined() == bias_v.defined(), kOp,
              ": bias_k and bias_v must be given together");
  if (bias_k.defined()) {
    BRASA_CHECK(!o.static_k().defined(), kOp, ": bias cannot be added to static key");
    BRASA_CHECK(!o.static_v().defined(), kOp, ": bias cannot be added to static value");
    BRASA_CHECK(bias_k.numel() == e && bias_v.numel() == e, kOp,
                ": bias_k and bias_v should be [1, 1, ", e, "], got ", bias_k.sizes(), " and ",
                bias_v.sizes());
    k = cat({k, bias_k.reshape({1, 1, e}).expand({1, bsz, e})}, 0);
    v = cat({v, bias_v.reshape({1, 1, e}).expand({1, bsz, e})}, 0);
    mask = pad_last(mask);
    kpm = pad_last(kpm);
  }
  const int64_t bh = bsz * heads;
  q = q.contiguous().view({tgt_len, bh, head_dim}).transpose(0, 1);
  k = static_kv(o.static_k(), k.contiguous().view({k.size(0), bh, head_dim}).transpose(0, 1), bh,
                head_dim, "static_k");
  v = static_kv(o.static_v(), v.contiguous().view({v.size(0), bh, head_dim}).transpose(0, 1), bh,
                head_dim, "static_v");
  BRASA_CHECK(k.size(1) == v.size(1), kOp, ": keys (", k.sizes(), ") and values (", v.sizes(),
              ") differ in length");
  if (o.add_zero_attn()) {
    k = cat({k, zeros({bh, 1, head_dim}, k.options())}, 1);
    v = cat({v, zeros({bh, 1, head_dim}, v.options())}, 1);
    mask = pad_last(mask);
    kpm = pad_last(kpm);
  }
  const int64_t src_len = k.size(1);
  BRASA_CHECK(!kpm.defined() || kpm.size(1) == src_len, kOp, ": key_padding_mask covers ",
              kpm.size(1), " keys, the keys are ", src_len);
  BRASA_CHECK(!mask.defined() || mask.size(2) == src_len, kOp, ": attn_mask covers ", mask.size(2),
              " keys, the keys are ", src_len);
  Tensor merged = mask.defined() ? to_additive(mask, q.scalar_type()) : Tensor();
  if (kpm.defined()) {
    Tensor pad = to_additive(kpm, q.scalar_type())
                     .view({bsz, 1, 1, src_len})
                     .expand({bsz, heads, 1, src_len})
                     .reshape({bh, 1, src_len});
    merged = merged.defined() ? merged + pad : pad;
  }
  const double p = o.training() ? o.dropout_p() : 0.0;
  Tensor out, weights;
  if (o.need_weights()) {
    Tensor scores = (q * (1.0 / std::sqrt(static_cast<double>(head_dim)))).bmm(k.transpose(1, 2));
    if (merged.defined()) scores = scores + merged;
    weights = scores.softmax(-1);
    Tensor probs = p > 0 ? dropout(weights, DropoutFuncOptions().p(p)) : weights;
    out = probs.bmm(v);
  } else {
    out = scaled_dot_product_attention(q, k, v, merged, p);
  }
  out = out.transpose(0, 1).contiguous().view({tgt_len * bsz, e});
  out = linear(out, o.out_proj_weight(), o.out_proj_bias()).view({tgt_len, bsz, e});
  if (weights.defined()) {
    weights = weights.view({bsz, heads, tgt_len, src_len});
    if (o.average_attn_weights()) weights = weights.mean({1});
  }
  if (!batched) {
    out = out.squeeze(1);
    if (weights.defined()) weights = weights.squeeze(0);
  }
  return {out, weights};
}

}  // namespace brasa::nn::functional
