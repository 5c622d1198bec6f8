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
BRASA_DECLARE_OP(
    sdpa_backward_op, "scaled_dot_product_attention_backward",
    "scaled_dot_product_attention_backward(Tensor grad_out, Tensor query, Tensor key, Tensor "
    "value, Tensor? attn_mask, Tensor out, Tensor logsumexp, Tensor philox, float dropout_p, bool "
    "is_causal, float? scale) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
    std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                       const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                       double, bool, std::optional<double>));
BRASA_ATEN(
    sdpa_backward_op,
    "none: aten 1.13 has no scaled_dot_product_attention_backward (its attention is a composite)");

}  // namespace brasa::ops
