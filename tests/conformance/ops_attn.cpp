// Op map of the attention family (cases_attn.py): scaled_dot_product_attention and its backward
// op, bilinear and cdist.

#include "brasa/ops/attention.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

int64_t cdist_mode(const Args& a) {
  const auto m = a.kw_str("compute_mode").value_or("use_mm_for_euclid_dist_if_necessary");
  if (m == "use_mm_for_euclid_dist") return 1;
  if (m == "donot_use_mm_for_euclid_dist") return 2;
  return 0;
}

const OpTable kAttn("attn",
                    {
                        {"sdpa",
                         [](const Args& a) -> Value {
                           return scaled_dot_product_attention(
                               a.tensor(0), a.tensor(1), a.tensor(2), a.kw_tensor("attn_mask"), 0.0,
                               a.kw_bool("is_causal").value_or(false), a.kw_real("scale"));
                         }},
                        {"sdpa_grad",
                         [](const Args& a) -> Value {
                           const Tensor mask = a.kw_tensor("attn_mask");
                           const bool causal = a.kw_bool("is_causal").value_or(false);
                           const auto scale = a.kw_real("scale");
                           auto [out, lse, philox] = _scaled_dot_product_attention_forward(
                               a.tensor(0), a.tensor(1), a.tensor(2), mask, 0.0, causal, scale);
                           auto [gq, gk, gv] = scaled_dot_product_attention_backward(
                               a.tensor(3), a.tensor(0), a.tensor(1), a.tensor(2), mask, out, lse,
                               philox, 0.0, causal, scale);
                           return Value::of_tensors({gq, gk, gv});
                         }},
                        {"nn.bilinear",
                         [](const Args& a) -> Value {
                           return nn::functional::bilinear(a.tensor(0), a.tensor(1), a.tensor(2),
                                                           a.size() > 3 ? a.tensor(3) : Tensor());
                         }},
                        {"cdist",
                         [](const Args& a) -> Value {
                           return cdist(a.tensor(0), a.tensor(1), a.kw_real("p").value_or(2.0),
                                        cdist_mode(a));
                         }},
                    });

}  // namespace
}  // namespace brasa::conformance
