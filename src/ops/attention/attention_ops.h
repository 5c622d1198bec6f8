#pragma once
// The attention family's dispatched ops (Note [Op declarations]); their CPU loops are behind
// backends/cpu/kernels/attention_kernels.h.

#include <optional>
#include <tuple>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// The dispatched ops (Note [Op declarations]): kernels in attention.cpp, derivatives in
// attention_grad.cpp.
BRASA_DECLARE_OP(sdpa_forward_op, "_scaled_dot_product_attention_forward",
                 "_scaled_dot_product_attention_forward(Tensor query, Tensor key, Tensor value, "
                 "Tensor? attn_mask, float dropout_p, bool is_causal, float? scale, Generator? "
                 "generator) -> (Tensor output, Tensor logsumexp, Tensor philox)",
                 std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                    const Tensor&, double, bool,
                                                    std::optional<double>,
                                                    std::optional<Generator>));
BRASA_ATEN(sdpa_forward_op,
           "none: brasa's attention kernel; aten 1.13's _scaled_dot_product_attention_forward "
           "takes need_attn_weights and returns the weights");
// The forward's result is `output`: a tensor argument named `out` is an out= argument to the
// schema parser, and the tracer would take every node of this op for one that writes it.
BRASA_DECLARE_OP(
    sdpa_backward_op, "scaled_dot_product_attention_backward",
    "scaled_dot_product_attention_backward(Tensor grad_out, Tensor query, Tensor key, Tensor "
    "value, Tensor? attn_mask, Tensor output, Tensor logsumexp, Tensor philox, float dropout_p, "
    "bool "
    "is_causal, float? scale) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
    std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                       const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                       double, bool, std::optional<double>));
BRASA_ATEN(
    sdpa_backward_op,
    "none: aten 1.13 has no scaled_dot_product_attention_backward (its attention is a composite)");

/// Writes scaled_dot_product_attention_backward's three gradients into grad_query, grad_key and
/// grad_value (of the query's, key's and value's shapes, not overlapping anything else): the
/// op's values, written in place where the kernel can (Note [Attention gradients into slices]).
/// For compiled graphs; throws as the op does.
BRASA_API void scaled_dot_product_attention_backward_into(
    const Tensor& grad_out, const Tensor& query, const Tensor& key, const Tensor& value,
    const Tensor& attn_mask, const Tensor& out, const Tensor& logsumexp, const Tensor& philox,
    double dropout_p, bool is_causal, std::optional<double> scale, const Tensor& grad_query,
    const Tensor& grad_key, const Tensor& grad_value);

/// _scaled_dot_product_attention_forward's results with `output` written in merged-head layout:
/// for a 4-d query [B, H, L, E] (key and value of the same batch dims), output is the [B, H, L,
/// Ev] view of a contiguous [B, L, H, Ev] buffer, so output.transpose(1, 2) is contiguous (Note
/// [Attention output in merged heads]). The op's values bit for bit; where the kernel cannot
/// (BFloat16/Half, broadcast batch dims, an input that requires grad under grad mode) the op's
/// own contiguous result. For compiled graphs; throws as the op does.
BRASA_API std::tuple<Tensor, Tensor, Tensor> scaled_dot_product_attention_forward_merged(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attn_mask,
    double dropout_p, bool is_causal, std::optional<double> scale,
    std::optional<Generator> generator);

}  // namespace brasa::ops
