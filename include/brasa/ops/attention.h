#pragma once
// Attention and pairwise products: scaled_dot_product_attention (PyTorch 2.x signature), bilinear
// and cdist (libtorch spellings; also reachable as torch::nn::functional::bilinear).

#include <optional>
#include <tuple>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// softmax(query @ key^T * scale + attn_mask) @ value, with dropout on the probabilities.
/// query [..., L, E], key [..., S, E], value [..., S, Ev] (batch dims broadcast) -> [..., L, Ev].
/// attn_mask: bool (keep where true) or an additive float mask broadcastable to [..., L, S];
/// is_causal keeps key j for query i when j <= i. scale defaults to 1 / sqrt(E). Floating dtypes;
/// computed blockwise without an L x S matrix (Note [Blockwise attention]). Throws ValueError for
/// rank < 2, mismatched E or S, unbroadcastable shapes, attn_mask together with is_causal.
BRASA_API Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key,
                                              const Tensor& value, const Tensor& attn_mask = {},
                                              double dropout_p = 0.0, bool is_causal = false,
                                              std::optional<double> scale = std::nullopt,
                                              std::optional<Generator> generator = std::nullopt);

/// The forward with what the backward needs: (output, logsumexp [..., L] in the compute dtype,
/// philox [2] int64: the dropout stream's seed and offset).
BRASA_API std::tuple<Tensor, Tensor, Tensor> _scaled_dot_product_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attn_mask,
    double dropout_p, bool is_causal, std::optional<double> scale,
    std::optional<Generator> generator = std::nullopt);

/// Gradients (grad_query, grad_key, grad_value) of the attention above, shaped like the inputs,
/// recomputing probabilities tile by tile from logsumexp. attn_mask gets no gradient.
BRASA_API std::tuple<Tensor, Tensor, Tensor> scaled_dot_product_attention_backward(
    const Tensor& grad_out, const Tensor& query, const Tensor& key, const Tensor& value,
    const Tensor& attn_mask, const Tensor& out, const Tensor& logsumexp, const Tensor& philox,
    double dropout_p, bool is_causal, std::optional<double> scale);

/// x1 [..., in1], x2 [..., in2], weight [out, in1, in2], bias [out] -> [..., out]:
/// y_k = x1^T W_k x2 + b_k. Throws ValueError on mismatched sizes.
BRASA_API Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                          const Tensor& bias = {});

/// p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M] -> [..., P, R].
/// compute_mode: absent/0 uses the matrix-product form for p == 2 when P or R > 25, 1 always uses
/// it, 2 never. Throws ValueError for p < 0, rank < 2 or different M.
BRASA_API Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2.0,
                       std::optional<int64_t> compute_mode = std::nullopt);

namespace nn::functional {
using ::brasa::bilinear;
using ::brasa::scaled_dot_product_attention;
}  // namespace nn::functional

}  // namespace brasa
