// MultiheadAttention and the transformer modules: outputs and gradients equal PyTorch 1.13's for
// the same weights and inputs; masks; printing; errors.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "brasa/brasa.h"
#include "support/torch_oracle.h"

using namespace brasa;
namespace oracle = brasa::testing_oracle;

namespace {
template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}

Tensor padding_mask() { return tensor({{0, 0, 0, 1, 1}, {0, 0, 0, 0, 0}}).to(kBool); }

const char* kPyMasks = R"PY(
kpm = torch.tensor([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]]).bool()
def causal(n): return torch.triu(torch.full((n, n), float('-inf')), 1)
)PY";
}  // namespace

TEST(NNTransformer, MultiheadAttentionWithMasksMatchesTorch) {
  nn::MultiheadAttention mha(8, 2);
  mha->to(kDouble);
  oracle::fill_params(*mha);
  auto q = oracle::input({3, 2, 8}, 0);
  auto k = oracle::input({5, 2, 8}, 1);
  auto v = oracle::input({5, 2, 8}, 2);
  auto attn_mask = oracle::formula({3, 5}, 0.5, 0.7, 0.1);
  auto [out, weights] = mha(q, k, v, padding_mask(), true, attn_mask);
  EXPECT_EQ(weights.sizes(), IntArrayRef({2, 3, 5}));
  EXPECT_TRUE(weights.select(0, 0).narrow(1, 3, 2).equal(zeros({3, 2}, kDouble)));
  auto ref = oracle::run_python(std::string(kPyMasks) + R"PY(
m = torch.nn.MultiheadAttention(8, 2); fill(m)
q, k, v = inp([3, 2, 8], 0), inp([5, 2, 8], 1), inp([5, 2, 8], 2)
am = formula([3, 5], 0.5, 0.7, 0.1)
report(m, [q, k, v], m(q, k, v, key_padding_mask=kpm, need_weights=True, attn_mask=am))
)PY");
  oracle::compare(*mha, {q, k, v}, {out, weights}, ref);
}

TEST(NNTransformer, MultiheadAttentionKdimVdimBiasKvMatchesTorch) {
  nn::MultiheadAttention mha(
      nn::MultiheadAttentionOptions(8, 4).kdim(5).vdim(6).add_bias_kv(true).add_zero_attn(true));
  mha->to(kDouble);
  oracle::fill_params(*mha);
  EXPECT_FALSE(mha->in_proj_weight.defined());
  EXPECT_EQ(mha->k_proj_weight.sizes(), IntArrayRef({8, 5}));
  auto q = oracle::input({3, 2, 8}, 0);
  auto k = oracle::input({5, 2, 5}, 1);
  auto v = oracle::input({5, 2, 6}, 2);
  auto attn_mask = tensor({{0, 1, 0, 0, 0}, {0, 0, 1, 1, 0}, {0, 0, 0, 0, 1}}).to(kBool);
  auto [out, weights] = mha(q, k, v, padding_mask(), true, attn_mask, false);
  EXPECT_EQ(weights.sizes(), IntArrayRef({2, 4, 3, 7}));
  auto ref = oracle::run_python(std::string(kPyMasks) + R"PY(
m = torch.nn.MultiheadAttention(8, 4, kdim=5, vdim=6, add_bias_kv=True, add_zero_attn=True)
fill(m)
q, k, v = inp([3, 2, 8], 0), inp([5, 2, 5], 1), inp([5, 2, 6], 2)
am = torch.tensor([[0, 1, 0, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 1]]).bool()
report(m, [q, k, v], m(q, k, v, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False))
)PY");
  oracle::compare(*mha, {q, k, v}, {out, weights}, ref);
}

TEST(NNTransformer, MultiheadAttentionSelfAttentionWithoutWeights) {
  nn::MultiheadAttention mha(8, 2);
  mha->to(kDouble);
  auto x = randn({4, 3, 8}, kDouble);
  auto [fused, none] = mha(x, x, x, Tensor(), false);
  EXPECT_FALSE(none.defined());
  auto [explicit_out, w] = mha(x, x.clone(), x.clone());
  EXPECT_TRUE(fused.allclose(explicit_out, 1e-9, 1e-10));
  auto [unbatched, uw] = mha(x.select(1, 0), x.select(1, 0), x.select(1, 0));
  EXPECT_TRUE(unbatched.allclose(fused.select(1, 0), 1e-9, 1e-10));
  EXPECT_EQ(uw.sizes(), IntArrayRef({4, 4}));
  EXPECT_THROW(mha(randn({4, 3, 7}), x, x), ValueError);
  EXPECT_THROW(mha(x, x, x, zeros({3, 5}).to(kBool)), ValueError);
  EXPECT_THROW(mha(x, x, x, Tensor(), true, zeros({4, 5})), ValueError);
  EXPECT_THROW(nn::MultiheadAttention(8, 3), ValueError);
  // libtorch 1.13 prints the name alone, then the children.
  EXPECT_EQ(printed(mha).rfind("torch::nn::MultiheadAttention(\n"
                               "  (out_proj): torch::nn::Linear(",
                               0),
            0u);
}

class NNTransformerEncoderLayer : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(NNTransformerEncoderLayer, MatchesTorch) {
  const auto [gelu, norm_first] = GetParam();
  auto opts = nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0).norm_first(
      norm_first);
  if (gelu) opts.activation(kGELU);
  nn::TransformerEncoderLayer layer(opts);
  layer->to(kDouble);
  layer->eval();
  oracle::fill_params(*layer);
  auto src = oracle::input({5, 2, 8}, 0);
  auto out = layer(src, nn::TransformerImpl::generate_square_subsequent_mask(5).to(kDouble),
                   padding_mask());
  auto ref = oracle::run_python(std::string(kPyMasks) + "act, nf = '" + (gelu ? "gelu" : "relu") +
                                "', " + (norm_first ? "True" : "False") + R"PY(
m = torch.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, activation=act,
                                     norm_first=nf)
fill(m); m.eval()
src = inp([5, 2, 8], 0)
report(m, [src], m(src, src_mask=causal(5), src_key_padding_mask=kpm))
)PY");
  oracle::compare(*layer, {src}, {out}, ref);
}

INSTANTIATE_TEST_SUITE_P(ActivationAndNormFirst, NNTransformerEncoderLayer,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()));

TEST(NNTransformer, DecoderLayerMatchesTorch) {
  nn::TransformerDecoderLayer layer(
      nn::TransformerDecoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  layer->to(kDouble);
  layer->eval();
  oracle::fill_params(*layer);
  auto tgt = oracle::input({4, 2, 8}, 0);
  auto memory = oracle::input({5, 2, 8}, 1);
  auto out = layer(tgt, memory, nn::TransformerImpl::generate_square_subsequent_mask(4).to(kDouble),
                   Tensor(), Tensor(), padding_mask());
  auto ref = oracle::run_python(std::string(kPyMasks) + R"PY(
m = torch.nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0); fill(m); m.eval()
tgt, mem = inp([4, 2, 8], 0), inp([5, 2, 8], 1)
report(m, [tgt, mem], m(tgt, mem, tgt_mask=causal(4), memory_key_padding_mask=kpm))
)PY");
  oracle::compare(*layer, {tgt, memory}, {out}, ref);
}

TEST(NNTransformer, FullTransformerMatchesTorch) {
  nn::Transformer model(
      nn::TransformerOptions(8, 2, 2, 1).dim_feedforward(16).dropout(0.0).activation(kGELU));
  model->to(kDouble);
  model->eval();
  oracle::fill_params(*model);
  auto src = oracle::input({5, 2, 8}, 0);
  auto tgt = oracle::input({4, 2, 8}, 1);
  auto out =
      model(src, tgt, Tensor(), nn::TransformerImpl::generate_square_subsequent_mask(4).to(kDouble),
            Tensor(), padding_mask(), Tensor(), padding_mask());
  auto ref = oracle::run_python(std::string(kPyMasks) + R"PY(
m = torch.nn.Transformer(8, 2, 2, 1, dim_feedforward=16, dropout=0.0, activation='gelu')
fill(m); m.eval()
src, tgt = inp([5, 2, 8], 0), inp([4, 2, 8], 1)
report(m, [src, tgt], m(src, tgt, tgt_mask=causal(4), src_key_padding_mask=kpm,
                        memory_key_padding_mask=kpm))
)PY");
  oracle::compare(*model, {src, tgt}, {out}, ref);
  EXPECT_THROW(model(randn({5, 3, 8}, kDouble), randn({4, 2, 8}, kDouble)), ValueError);
}

TEST(NNTransformer, EncoderStackClonesLayersAndPrints) {
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16));
  nn::TransformerEncoder enc(nn::TransformerEncoderOptions(layer, 3));
  ASSERT_EQ(enc->layers->size(), 3u);
  auto p0 = enc->named_parameters()["layers.0.linear1.weight"];
  auto p1 = enc->named_parameters()["layers.1.linear1.weight"];
  EXPECT_TRUE(p0.equal(p1));
  EXPECT_FALSE(p0.is_same(p1));
  EXPECT_EQ(enc->named_parameters().size(), 3u * 12u);
  enc->eval();
  EXPECT_EQ(enc(randn({5, 2, 8})).sizes(), IntArrayRef({5, 2, 8}));
  const std::string text = printed(layer);
  // libtorch 1.13 prints the layers and stacks under their class names, without options.
  EXPECT_EQ(text.rfind("torch::nn::TransformerEncoderLayerImpl(\n"
                       "  (self_attn): torch::nn::MultiheadAttention(\n",
                       0),
            0u);
  EXPECT_EQ(printed(enc).rfind("torch::nn::TransformerEncoderImpl(\n"
                               "  (layers): torch::nn::ModuleList(\n"
                               "    (0): torch::nn::TransformerEncoderLayerImpl(\n",
                               0),
            0u);
  EXPECT_NE(text.find("(norm2): torch::nn::LayerNorm([8], eps=1e-05, elementwise_affine=true)"),
            std::string::npos);
  auto mask = nn::TransformerImpl::generate_square_subsequent_mask(3);
  EXPECT_EQ(mask.select(0, 0).select(0, 1).item<double>(), -INFINITY);
  EXPECT_EQ(mask.select(0, 2).select(0, 1).item<double>(), 0.0);
  EXPECT_THROW(nn::TransformerEncoderLayer(8, 3), ValueError);
}
