#pragma once
// F::multi_head_attention_forward with libtorch's MultiheadAttentionForwardFuncOptions (the ten
// leading arguments in its constructor, the rest as setters). The MultiheadAttention module runs
// it with its parameters, so module and functional agree.

#include <cstdint>
#include <tuple>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"

namespace brasa::nn::functional {

struct BRASA_API MultiheadAttentionForwardFuncOptions {
  MultiheadAttentionForwardFuncOptions(int64_t embed_dim_to_check, int64_t num_heads,
                                       Tensor in_proj_weight, Tensor in_proj_bias, Tensor bias_k,
                                       Tensor bias_v, bool add_zero_attn, double dropout_p,
                                       Tensor out_proj_weight, Tensor out_proj_bias);
  BRASA_ARG(int64_t, embed_dim_to_check);
  BRASA_ARG(int64_t, num_heads);
  BRASA_ARG(Tensor, in_proj_weight);
  BRASA_ARG(Tensor, in_proj_bias);
  BRASA_ARG(Tensor, bias_k);
  BRASA_ARG(Tensor, bias_v);
  BRASA_ARG(bool, add_zero_attn);
  BRASA_ARG(double, dropout_p);
  BRASA_ARG(Tensor, out_proj_weight);
  BRASA_ARG(Tensor, out_proj_bias);
  BRASA_ARG(bool, training) = true;
  BRASA_ARG(Tensor, key_padding_mask) = {};
  BRASA_ARG(bool, need_weights) = true;
  BRASA_ARG(Tensor, attn_mask) = {};
  BRASA_ARG(bool, use_separate_proj_weight) = false;
  BRASA_ARG(Tensor, q_proj_weight) = {};
  BRASA_ARG(Tensor, k_proj_weight) = {};
  BRASA_ARG(Tensor, v_proj_weight) = {};
  BRASA_ARG(Tensor, static_k) = {};
  BRASA_ARG(Tensor, static_v) = {};
  BRASA_ARG(bool, average_attn_weights) = true;
};

/// Attention of query [L, N, E] over key [S, N, Ek] and value [S, N, Ev] (or unbatched [L, E],
/// ...) -> (output [L, N, E], weights [N, L, S] averaged over heads, [N, H, L, S] without
/// average_attn_weights, undefined without need_weights). in_proj_weight [3E, E] (or the separate
/// q/k/v_proj_weight), in_proj_bias [3E], bias_k / bias_v [1, 1, E] appended to key / value,
/// add_zero_attn appends a zero key and value; static_k / static_v [N*H, S, E/H] replace the
/// projected keys / values. key_padding_mask [N, S] and attn_mask [L, S] or [N*H, L, S]: bool
/// (true = masked) or additive float. Dropout on the weights when training. ValueError naming
/// the op and the shapes when the inputs do not fit.
BRASA_API std::tuple<Tensor, Tensor> multi_head_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value,
    const MultiheadAttentionForwardFuncOptions& options);

}  // namespace brasa::nn::functional
