// nn layers: default init ranges, forward vs the functional/op, options, printing, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;
namespace F = brasa::nn::functional;

namespace {
template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}
}  // namespace

TEST(NNLayers, LinearInitAndForward) {
  manual_seed(0);
  nn::Linear fc(100, 30);
  const double bound = 1.0 / std::sqrt(100.0);  // kaiming_uniform_(a=sqrt(5)) gives the same bound
  EXPECT_LE(fc->weight.abs().max().item<double>(), bound);
  EXPECT_GT(fc->weight.abs().max().item<double>(), 0.9 * bound);
  EXPECT_LE(fc->bias.abs().max().item<double>(), bound);
  auto x = randn({2, 7, 100});
  EXPECT_TRUE(fc(x).allclose(matmul(x, fc->weight.t()) + fc->bias, 1e-5, 1e-6));
  EXPECT_EQ(fc(x).sizes(), IntArrayRef({2, 7, 30}));
  nn::Linear nobias(nn::LinearOptions(3, 2).bias(false));
  EXPECT_EQ(nobias->parameters().size(), 1u);
}

TEST(NNLayers, BilinearForward) {
  nn::Bilinear bl(3, 4, 2);
  EXPECT_EQ(bl->weight.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_LE(bl->weight.abs().max().item<double>(), 1.0 / std::sqrt(3.0));
  auto a = randn({5, 3}), b = randn({5, 4});
  EXPECT_TRUE(bl(a, b).allclose(bilinear(a, b, bl->weight, bl->bias)));
  EXPECT_EQ(printed(bl),
            "torch::nn::Bilinear(in1_features=3, in2_features=4, out_features=2, bias=true)");
}

TEST(NNLayers, EmbeddingForwardAndPadding) {
  nn::Embedding emb(nn::EmbeddingOptions(10, 3).padding_idx(-1));
  EXPECT_EQ(emb->options.padding_idx(), 9);
  EXPECT_TRUE(emb->weight[9].equal(zeros({3})));
  auto idx = tensor({{1, 9}, {4, 0}}, kLong);
  auto y = emb(idx);
  EXPECT_EQ(y.sizes(), IntArrayRef({2, 2, 3}));
  EXPECT_TRUE(y.equal(embedding(emb->weight, idx)));
  EXPECT_THROW(emb(tensor({10}, kLong)), IndexError);
  EXPECT_THROW(nn::Embedding(nn::EmbeddingOptions(3, 2).padding_idx(3)), ValueError);
  EXPECT_EQ(printed(emb),
            "torch::nn::Embedding(num_embeddings=10, embedding_dim=3, padding_idx=9)");
  auto pre = nn::Embedding::from_pretrained(tensor({{1.0, 2.0}, {3.0, 4.0}}));
  EXPECT_FALSE(pre->weight.requires_grad());
  EXPECT_TRUE(pre(tensor({1}, kLong)).equal(tensor({{3.0, 4.0}})));
  auto trainable = nn::Embedding::from_pretrained(
      tensor({{1.0, 2.0}}), nn::EmbeddingFromPretrainedOptions().freeze(false));
  EXPECT_TRUE(trainable->weight.requires_grad());
}

TEST(NNLayers, EmbeddingBag) {
  nn::EmbeddingBag bag(nn::EmbeddingBagOptions(5, 2).mode(kSum));
  auto idx = tensor({0, 1, 2, 3}, kLong);
  auto offsets = tensor({0, 2}, kLong);
  auto y = bag(idx, offsets, Tensor());
  EXPECT_TRUE(y[0].allclose(bag->weight[0] + bag->weight[1]));
  EXPECT_TRUE(y[1].allclose(bag->weight[2] + bag->weight[3]));
}

TEST(NNLayers, FlattenUnflattenIdentity) {
  auto x = randn({2, 3, 4});
  EXPECT_EQ(nn::Flatten()(x).sizes(), IntArrayRef({2, 12}));
  EXPECT_EQ(nn::Unflatten(1, std::vector<int64_t>{2, 6})(nn::Flatten()(x)).sizes(),
            IntArrayRef({2, 2, 6}));
  EXPECT_TRUE(nn::Identity()(x).is_same(x));
  EXPECT_EQ(printed(nn::Flatten()), "torch::nn::Flatten(start_dim=1, end_dim=-1)");
}

TEST(NNLayers, ActivationsMatchFunctionals) {
  auto x = randn({4, 6});
  EXPECT_TRUE(nn::ReLU()(x).equal(relu(x)));
  EXPECT_TRUE(nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2))(x).equal(
      F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.2))));
  EXPECT_TRUE(nn::GELU()(x).equal(F::gelu(x)));
  EXPECT_TRUE(nn::Softmax(1)(x).equal(F::softmax(x, 1)));
  EXPECT_TRUE(nn::LogSoftmax(0)(x).equal(F::log_softmax(x, 0)));
  EXPECT_TRUE(nn::GLU()(x).equal(F::glu(x)));
  EXPECT_TRUE(nn::Sigmoid()(x).equal(sigmoid(x)));
  EXPECT_TRUE(nn::Tanh()(x).equal(tanh(x)));
  EXPECT_TRUE(nn::SiLU()(x).equal(F::silu(x)));
  EXPECT_TRUE(
      nn::Hardtanh(nn::HardtanhOptions().min_val(-0.5).max_val(0.5))(x).equal(clamp(x, -0.5, 0.5)));
  EXPECT_EQ(printed(nn::LeakyReLU()), "torch::nn::LeakyReLU(negative_slope=0.01)");
  EXPECT_EQ(printed(nn::ReLU(true)), "torch::nn::ReLU(inplace=true)");
  EXPECT_EQ(printed(nn::Softmax(1)), "torch::nn::Softmax(dim=1)");
}

TEST(NNLayers, DropoutFollowsTrainingMode) {
  nn::Dropout drop(0.5);
  auto x = ones({1000});
  auto y = drop(x);
  const double zeros_frac = (y == 0).to(kDouble).mean().item<double>();
  EXPECT_GT(zeros_frac, 0.4);
  EXPECT_LT(zeros_frac, 0.6);
  drop->eval();
  EXPECT_TRUE(drop(x).equal(x));
  EXPECT_THROW(nn::Dropout(1.5), ValueError);
  EXPECT_EQ(printed(drop), "torch::nn::Dropout(p=0.5, inplace=false)");
}

TEST(NNLayers, LossesMatchFunctionals) {
  auto input = randn({4, 5}), target = randn({4, 5});
  EXPECT_TRUE(nn::MSELoss()(input, target).equal(F::mse_loss(input, target)));
  EXPECT_TRUE(nn::L1Loss(kSum)(input, target).equal(F::l1_loss(input, target, kSum)));
  EXPECT_TRUE(nn::HuberLoss(nn::HuberLossOptions().delta(0.5))(input, target)
                  .equal(F::huber_loss(input, target, F::HuberLossFuncOptions().delta(0.5))));
  auto cls = tensor({0, 4, 2, 1}, kLong);
  EXPECT_TRUE(nn::CrossEntropyLoss()(input, cls).equal(F::cross_entropy(input, cls)));
  EXPECT_TRUE(nn::NLLLoss()(F::log_softmax(input, 1), cls).allclose(F::cross_entropy(input, cls)));
  auto p = sigmoid(input), t = (target > 0).to(kFloat);
  EXPECT_TRUE(nn::BCELoss()(p, t).equal(F::binary_cross_entropy(p, t)));
  EXPECT_TRUE(nn::BCEWithLogitsLoss()(input, t).allclose(nn::BCELoss()(p, t), 1e-4, 1e-5));
  auto y = tensor({1.0f, -1.0f, 1.0f, -1.0f});
  EXPECT_TRUE(nn::CosineEmbeddingLoss()(input, target, y)
                  .equal(F::cosine_embedding_loss(input, target, y)));
  EXPECT_TRUE(nn::MarginRankingLoss()(input[0], target[0], ones({5}))
                  .equal(F::margin_ranking_loss(input[0], target[0], ones({5}))));
  EXPECT_THROW(nn::MSELoss()(input, randn({3})), ValueError);
  EXPECT_EQ(printed(nn::CrossEntropyLoss()), "torch::nn::CrossEntropyLoss()");
}
