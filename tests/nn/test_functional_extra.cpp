// F::one_hot / embedding / embedding_bag / pdist / affine_grid / grid_sample /
// multi_head_attention_forward / gumbel_softmax: libtorch spellings and defaults, module and
// functional agreement, gumbel_softmax's draws against PyTorch's, and the grid sampler's errors,
// meta function and (absent) double backward. Values and gradients against PyTorch are the
// conformance family `nnfuncx`.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "brasa/nn/functional.h"
#include "support/torch_oracle.h"

using namespace brasa;
namespace F = brasa::nn::functional;
namespace oracle = brasa::testing_oracle;

namespace {

void expect_close(const Tensor& a, const Tensor& b, double tol = 1e-6) {
  ASSERT_EQ(a.sizes(), b.sizes());
  EXPECT_TRUE(allclose(a.to(kDouble), b.to(kDouble), tol, tol)) << a << "\nvs\n" << b;
}

}  // namespace

TEST(NNFunctionalExtra, TorchSpellingsAndDefaults) {
  namespace TF = torch::nn::functional;
  EXPECT_EQ(TF::one_hot(torch::tensor({0, 2})).sizes(), IntArrayRef({2, 3}));
  EXPECT_FALSE(TF::EmbeddingFuncOptions().padding_idx().has_value());
  EXPECT_EQ(TF::EmbeddingFuncOptions().norm_type(), 2.0);
  EXPECT_TRUE(brasa::nn::holds_alternative<enumtype::kMean>(TF::EmbeddingBagFuncOptions().mode()));
  EXPECT_TRUE(
      brasa::nn::holds_alternative<enumtype::kBilinear>(TF::GridSampleFuncOptions().mode()));
  EXPECT_TRUE(
      brasa::nn::holds_alternative<enumtype::kZeros>(TF::GridSampleFuncOptions().padding_mode()));
  TF::GridSampleFuncOptions g;
  g.mode(torch::kNearest).padding_mode(torch::kReflection).align_corners(true);
  EXPECT_TRUE(brasa::nn::holds_alternative<enumtype::kReflection>(g.padding_mode()));
  EXPECT_EQ(TF::GumbelSoftmaxFuncOptions().tau(), 1.0);
  EXPECT_EQ(TF::GumbelSoftmaxFuncOptions().dim(), -1);
  EXPECT_FALSE(TF::GumbelSoftmaxFuncOptions().hard());
  torch::Tensor x = torch::tensor({{0.0, 0.0}, {3.0, 4.0}});
  expect_close(TF::pdist(x), torch::tensor({5.0}));
  expect_close(TF::pdist(x, 1.0), torch::tensor({7.0}));
  // The identity affine map gives the base grid, whose sampling returns the input.
  torch::Tensor theta = torch::tensor({{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}}});
  torch::Tensor grid = TF::affine_grid(theta, {1, 1, 3, 4}, /*align_corners=*/false);
  EXPECT_EQ(grid.sizes(), IntArrayRef({1, 3, 4, 2}));
  torch::Tensor img = torch::arange(12.0).reshape({1, 1, 3, 4});
  expect_close(TF::grid_sample(img, grid, TF::GridSampleFuncOptions().align_corners(false)), img);
}

TEST(NNFunctionalExtra, EmbeddingModuleAgreesWithFunctional) {
  nn::Embedding emb(nn::EmbeddingOptions(6, 3).padding_idx(-2).max_norm(0.5).norm_type(1.0));
  Tensor w = emb->weight.detach().clone().requires_grad_();
  Tensor idx = tensor({{0, 4, 5}, {3, 4, 1}});
  Tensor a = emb(idx);
  Tensor b =
      F::embedding(idx, w, F::EmbeddingFuncOptions().padding_idx(-2).max_norm(0.5).norm_type(1.0));
  expect_close(a, b);
  a.sum().backward();
  b.sum().backward();
  expect_close(emb->weight.grad(), w.grad());
  expect_close(w.grad()[4], zeros({3}));  // padding row: no gradient
  EXPECT_THROW(F::embedding(idx, w, F::EmbeddingFuncOptions().padding_idx(6)), ValueError);
  EXPECT_THROW(F::embedding(idx, w, F::EmbeddingFuncOptions().padding_idx(-7)), ValueError);
  EXPECT_THROW(F::embedding(idx, tensor({1.0, 2.0})), ValueError);
}

TEST(NNFunctionalExtra, EmbeddingBagModuleAgreesWithFunctional) {
  Tensor weights = randn({7, 4});
  auto bag = nn::EmbeddingBag::from_pretrained(
      weights, nn::EmbeddingBagFromPretrainedOptions().mode(torch::kSum).padding_idx(2));
  EXPECT_FALSE(bag->weight.requires_grad());
  Tensor idx = tensor({1, 2, 4, 6, 0});
  Tensor off = tensor({0, 2});
  Tensor psw = rand({5});
  Tensor a = bag(idx, off, psw);
  Tensor b = F::embedding_bag(idx, weights,
                              F::EmbeddingBagFuncOptions()
                                  .offsets(off)
                                  .mode(torch::kSum)
                                  .per_sample_weights(psw)
                                  .padding_idx(2));
  expect_close(a, b);
  nn::EmbeddingBag mean_bag(nn::EmbeddingBagOptions(7, 4).mode(torch::kMax));
  Tensor c = mean_bag(idx.reshape({-1}).slice(0, 0, 4).reshape({2, 2}));
  expect_close(c, F::embedding_bag(idx.slice(0, 0, 4).reshape({2, 2}), mean_bag->weight,
                                   F::EmbeddingBagFuncOptions().mode(torch::kMax)));
  EXPECT_THROW(
      F::embedding_bag(
          idx, weights,
          F::EmbeddingBagFuncOptions().offsets(off).mode(torch::kMax).scale_grad_by_freq(true)),
      ValueError);
  EXPECT_THROW(F::embedding_bag(idx, weights, F::EmbeddingBagFuncOptions().offsets(tensor({0, 6}))),
               ValueError);
  EXPECT_THROW(nn::EmbeddingBag::from_pretrained(tensor({1.0})), ValueError);
}

TEST(NNFunctionalExtra, MultiheadAttentionModuleIsTheFunctional) {
  nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(8, 2).add_bias_kv(true));
  mha->eval();
  Tensor q = randn({3, 2, 8}), k = randn({4, 2, 8}), v = randn({4, 2, 8});
  Tensor kpm = tensor({{false, true, false, false}, {false, false, false, true}});
  auto [out, w] = mha(q, k, v, kpm);
  auto o = F::MultiheadAttentionForwardFuncOptions(8, 2, mha->in_proj_weight, mha->in_proj_bias,
                                                   mha->bias_k, mha->bias_v, false, 0.0,
                                                   mha->out_proj->weight, mha->out_proj->bias)
               .training(false)
               .key_padding_mask(kpm);
  auto [fout, fw] = F::multi_head_attention_forward(q, k, v, o);
  expect_close(out, fout);
  expect_close(w, fw);
  EXPECT_EQ(fw.sizes(), IntArrayRef({2, 3, 5}));
  auto [nout, nw] = F::multi_head_attention_forward(q, k, v, o.need_weights(false));
  expect_close(nout, fout, 1e-5);
  EXPECT_FALSE(nw.defined());
  EXPECT_THROW(F::multi_head_attention_forward(q, k, v, o.embed_dim_to_check(6)), ValueError);
}

TEST(NNFunctionalExtra, GumbelSoftmaxDrawsAsPyTorch) {
  const auto& ref = oracle::run_python_shared(R"PY(
import torch.nn.functional as F
torch.manual_seed(11)
x = inp([4, 5], 0)
a = F.gumbel_softmax(x, tau=0.5)
b = F.gumbel_softmax(x, hard=True, dim=0)
pr('soft', a); pr('hard', b)
(a * formula(a.shape, 1.0, 0.11, 0.0)).sum().backward(); pr('gsoft', x.grad)
x.grad = None
(b * formula(b.shape, 1.0, 0.11, 0.0)).sum().backward(); pr('ghard', x.grad)
x32 = inp([3, 7], 1).float()
pr('soft32', F.gumbel_softmax(x32, tau=2.0))
)PY");
  manual_seed(11);
  Tensor x = oracle::input({4, 5}, 0);
  Tensor a = F::gumbel_softmax(x, F::GumbelSoftmaxFuncOptions().tau(0.5));
  Tensor b = F::gumbel_softmax(x, F::GumbelSoftmaxFuncOptions().hard(true).dim(0));
  oracle::expect_close("soft", a, ref, 1e-9);
  oracle::expect_close("hard", b, ref, 1e-9);
  (a * oracle::formula(a.sizes(), 1.0, 0.11, 0.0)).sum().backward();
  oracle::expect_close("gsoft", x.grad(), ref, 1e-9);
  x.mutable_grad() = Tensor();
  (b * oracle::formula(b.sizes(), 1.0, 0.11, 0.0)).sum().backward();
  oracle::expect_close("ghard", x.grad(), ref, 1e-9);
  Tensor x32 = oracle::input({3, 7}, 1).detach().to(kFloat);
  oracle::expect_close("soft32", F::gumbel_softmax(x32, F::GumbelSoftmaxFuncOptions().tau(2.0)),
                       ref, 1e-6);
  EXPECT_THROW(F::gumbel_softmax(tensor({1, 2})), TypeError);
}

TEST(NNFunctionalExtra, GridSampleWarnsWithoutAlignCorners) {
  std::vector<std::string> warnings;
  auto previous = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  Tensor x = randn({1, 1, 2, 2}), g = zeros({1, 1, 1, 2});
  F::grid_sample(x, g);
  F::grid_sample(x, g, F::GridSampleFuncOptions().align_corners(false));
  set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("align_corners"), std::string::npos);
}

TEST(NNFunctionalExtra, GridSamplerErrorsMetaAndDoubleBackward) {
  Tensor x = randn({2, 3, 4, 5}), g = rand({2, 6, 7, 2}) * 2 - 1;
  EXPECT_THROW(grid_sampler_2d(x, g, 3, 0, false), ValueError);
  EXPECT_THROW(grid_sampler_2d(x, g, 0, 3, false), ValueError);
  EXPECT_THROW(grid_sampler_3d(randn({1, 1, 2, 2, 2}), rand({1, 1, 1, 1, 3}), 2, 0, false),
               ValueError);
  EXPECT_THROW(grid_sampler_2d(x, g.to(kDouble), 0, 0, false), TypeError);
  EXPECT_THROW(grid_sampler_2d(x, g.slice(3, 0, 1), 0, 0, false), ValueError);
  Tensor m = grid_sampler_2d(x.to(Device("meta")), g.to(Device("meta")), 0, 0, false);
  EXPECT_EQ(m.device(), Device("meta"));
  EXPECT_EQ(m.sizes(), IntArrayRef({2, 3, 6, 7}));
  // The first derivative exists for input and grid; differentiating it again does not (as in
  // PyTorch 1.13).
  Tensor xi = x.clone().requires_grad_(), gi = g.clone().requires_grad_();
  Tensor y = grid_sampler_2d(xi, gi, 0, 0, false);
  auto grads = autograd::grad({y.sum()}, {xi, gi}, {}, /*retain_graph=*/true,
                              /*create_graph=*/true);
  EXPECT_EQ(grads[0].sizes(), x.sizes());
  EXPECT_EQ(grads[1].sizes(), g.sizes());
  EXPECT_THROW(autograd::grad({grads[1].sum()}, {gi}), NotImplementedError);
}
