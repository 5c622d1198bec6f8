// Op map of the nnfuncx family (cases_nnfuncx.py): torch.nn.functional's one_hot, embedding,
// embedding_bag, pdist, affine_grid, grid_sample and multi_head_attention_forward, replayed
// through brasa::nn::functional's option structs; and the at:: frobenius_norm, nuclear_norm,
// norm_except_dim, flatten_dense_tensors and unflatten_dense_tensors.

#include <vector>

#include "brasa/nn/aten_nn_functions.h"
#include "brasa/nn/functional.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

namespace F = brasa::nn::functional;

nn::EmbeddingBagMode bag_mode(const Args& a) {
  const std::string m = a.kw_str("mode").value_or("mean");
  if (m == "sum") return kSum;
  if (m == "max") return nn::EmbeddingBagMode(enumtype::kMax());
  return kMean;
}

F::GridSampleFuncOptions grid_options(const Args& a) {
  F::GridSampleFuncOptions o;
  if (a.kw_str("mode").value_or("bilinear") == "nearest") o.mode(kNearest);
  const std::string pad = a.kw_str("padding_mode").value_or("zeros");
  if (pad == "border") o.padding_mode(kBorder);
  if (pad == "reflection") o.padding_mode(kReflection);
  if (auto ac = a.kw_bool("align_corners")) o.align_corners(*ac);
  return o;
}

std::vector<Tensor> tensor_list(const Args& a, size_t i) {
  std::vector<Tensor> ts;
  for (const Value& v : a.at(i).list) ts.push_back(v.tensor);
  return ts;
}

Value mha(const Args& a) {
  // The case's helper takes no dropout_p (it passes 0.0).
  auto o = F::MultiheadAttentionForwardFuncOptions(
               a.integer(3), a.integer(4), opt_tensor(a, 5), opt_tensor(a, 6), opt_tensor(a, 7),
               opt_tensor(a, 8), a.at(9).b, 0.0, a.tensor(10), opt_tensor(a, 11))
               .training(a.kw_bool("training").value_or(true))
               .key_padding_mask(a.kw_tensor("key_padding_mask"))
               .need_weights(a.kw_bool("need_weights").value_or(true))
               .attn_mask(a.kw_tensor("attn_mask"))
               .use_separate_proj_weight(a.kw_bool("use_separate_proj_weight").value_or(false))
               .q_proj_weight(a.kw_tensor("q_proj_weight"))
               .k_proj_weight(a.kw_tensor("k_proj_weight"))
               .v_proj_weight(a.kw_tensor("v_proj_weight"))
               .static_k(a.kw_tensor("static_k"))
               .static_v(a.kw_tensor("static_v"))
               .average_attn_weights(a.kw_bool("average_attn_weights").value_or(true));
  auto [out, weights] = F::multi_head_attention_forward(a.tensor(0), a.tensor(1), a.tensor(2), o);
  return Value::of_list({Value(out), weights.defined() ? Value(weights) : Value()});
}

const OpTable kNNFuncX(
    "nnfuncx",
    {
        {"nn.one_hot",
         [](const Args& a) -> Value { return F::one_hot(a.tensor(0), a.integer(1)); }},
        {"nn.embedding",
         [](const Args& a) -> Value {
           auto o = F::EmbeddingFuncOptions()
                        .max_norm(a.kw_real("max_norm"))
                        .norm_type(a.kw_real("norm_type").value_or(2.0))
                        .scale_grad_by_freq(a.kw_bool("scale_grad_by_freq").value_or(false));
           if (auto p = a.kw_int("padding_idx")) o.padding_idx(*p);
           return F::embedding(a.tensor(0), a.tensor(1), o);
         }},
        {"nn.embedding_bag",
         [](const Args& a) -> Value {
           auto o = F::EmbeddingBagFuncOptions()
                        .mode(bag_mode(a))
                        .per_sample_weights(a.kw_tensor("per_sample_weights"))
                        .include_last_offset(a.kw_bool("include_last_offset").value_or(false));
           if (a.size() > 2) o.offsets(a.tensor(2));
           if (auto p = a.kw_int("padding_idx")) o.padding_idx(*p);
           return F::embedding_bag(a.tensor(0), a.tensor(1), o);
         }},
        {"nn.pdist",
         [](const Args& a) -> Value {
           return a.size() > 1 ? F::pdist(a.tensor(0), a.real(1)) : F::pdist(a.tensor(0));
         }},
        {"nn.affine_grid",
         [](const Args& a) -> Value {
           return F::affine_grid(a.tensor(0), a.ints(1), *a.kw_bool("align_corners"));
         }},
        {"nn.grid_sample",
         [](const Args& a) -> Value {
           return F::grid_sample(a.tensor(0), a.tensor(1), grid_options(a));
         }},
        {"nn.multi_head_attention_forward", mha},
        {"frobenius_norm",
         [](const Args& a) -> Value {
           if (a.size() == 1) return frobenius_norm(a.tensor(0));
           return a.size() == 2 ? frobenius_norm(a.tensor(0), a.ints(1))
                                : frobenius_norm(a.tensor(0), a.ints(1), a.at(2).b);
         }},
        {"nuclear_norm",
         [](const Args& a) -> Value {
           if (a.size() == 1) return nuclear_norm(a.tensor(0));
           if (a.at(1).tag == Tag::Bool) return nuclear_norm(a.tensor(0), a.at(1).b);
           return a.size() == 2 ? nuclear_norm(a.tensor(0), a.ints(1))
                                : nuclear_norm(a.tensor(0), a.ints(1), a.at(2).b);
         }},
        {"norm_except_dim",
         [](const Args& a) -> Value {
           return norm_except_dim(a.tensor(0), a.integer(1), a.integer(2));
         }},
        {"flatten_dense_tensors",
         [](const Args& a) -> Value { return flatten_dense_tensors(tensor_list(a, 0)); }},
        {"unflatten_dense_tensors",
         [](const Args& a) -> Value {
           return Value::of_tensors(unflatten_dense_tensors(a.tensor(0), tensor_list(a, 1)));
         }},
    });

}  // namespace
}  // namespace brasa::conformance
