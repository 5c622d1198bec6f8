#pragma once
// MultiheadAttention with libtorch's options and PyTorch's parameter layout (in_proj_weight,
// in_proj_bias, bias_k, bias_v, out_proj), so state dicts copy across.

#include <cstdint>
#include <tuple>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}
  BRASA_ARG(int64_t, embed_dim);
  BRASA_ARG(int64_t, num_heads);
  BRASA_ARG(double, dropout) = 0.0;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(bool, add_bias_kv) = false;
  BRASA_ARG(bool, add_zero_attn) = false;
  BRASA_ARG(int64_t, kdim);
  BRASA_ARG(int64_t, vdim);
};

/// Multi-head attention over sequence-first inputs: query [L, N, E], key [S, N, kdim],
/// value [S, N, vdim] (or unbatched [L, E], ...) -> (output [L, N, E], weights [N, L, S] averaged
/// over heads, or [N, H, L, S] when !average_attn_weights; undefined when !need_weights).
/// key_padding_mask [N, S]: bool (true = ignore) or additive float. attn_mask [L, S] or
/// [N*H, L, S]: bool (true = not allowed) or additive float. Weights: in_proj_weight [3E, E] when
/// kdim == vdim == E, else q_proj_weight/k_proj_weight/v_proj_weight; in_proj_bias [3E];
/// bias_k, bias_v [1, 1, E] when add_bias_kv; out_proj Linear(E, E). ValueError on bad shapes.
class BRASA_API MultiheadAttentionImpl : public Cloneable<MultiheadAttentionImpl> {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options_);

  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {},
                                     bool average_attn_weights = true);
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  void reset() override;
  void _reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim = true;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Tensor bias_k;
  Tensor bias_v;
  Linear out_proj = nullptr;
  Tensor q_proj_weight;
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  int64_t head_dim = 0;
};
BRASA_MODULE(MultiheadAttention);

}  // namespace brasa::nn
