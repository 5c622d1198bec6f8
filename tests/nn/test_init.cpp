// nn::init: bounds and statistics of the initialisers, calculate_gain, deterministic fills.
#include <gtest/gtest.h>

#include <cmath>

#include "brasa/brasa.h"

using namespace brasa;
namespace init = brasa::nn::init;

TEST(NNInit, CalculateGain) {
  EXPECT_DOUBLE_EQ(init::calculate_gain(kLinear), 1.0);
  EXPECT_DOUBLE_EQ(init::calculate_gain(kReLU), std::sqrt(2.0));
  EXPECT_NEAR(init::calculate_gain(kLeakyReLU, 0.2), 1.3867504905630728, 1e-12);
  EXPECT_NEAR(init::calculate_gain(kTanh), 5.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(init::calculate_gain(kSigmoid), 1.0);
}

TEST(NNInit, KaimingAndXavierBoundsAndStd) {
  manual_seed(1);
  auto w = empty({256, 128}).requires_grad_();
  init::kaiming_uniform_(w, 0, kFanIn, kReLU);
  const double bound = std::sqrt(2.0) * std::sqrt(3.0 / 128);
  EXPECT_LE(w.abs().max().item<double>(), bound);
  EXPECT_GT(w.abs().max().item<double>(), 0.98 * bound);
  EXPECT_TRUE(w.is_leaf());  // filled without history
  init::kaiming_normal_(w, 0, kFanOut, kReLU);
  EXPECT_NEAR(w.std().item<double>(), std::sqrt(2.0 / 256), 0.01);
  init::xavier_uniform_(w, 2.0);
  const double xb = 2.0 * std::sqrt(6.0 / (256 + 128));
  EXPECT_LE(w.abs().max().item<double>(), xb);
  EXPECT_GT(w.abs().max().item<double>(), 0.98 * xb);
  init::xavier_normal_(w);
  EXPECT_NEAR(w.std().item<double>(), std::sqrt(2.0 / (256 + 128)), 0.005);
  auto conv = empty({8, 4, 3, 3});
  auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(conv);
  EXPECT_EQ(fan_in, 36);
  EXPECT_EQ(fan_out, 72);
  EXPECT_THROW(init::xavier_uniform_(empty({5})), ValueError);
}

TEST(NNInit, DeterministicFills) {
  auto w = empty({3, 4});
  EXPECT_TRUE(init::eye_(w).equal(eye(3, 4)));
  EXPECT_TRUE(init::constant_(w, 2.5).equal(full({3, 4}, 2.5)));
  EXPECT_TRUE(init::zeros_(w).equal(zeros({3, 4})));
  EXPECT_TRUE(init::ones_(w).equal(ones({3, 4})));
  auto k = empty({2, 2, 3});
  init::dirac_(k);
  EXPECT_EQ(k.sum().item<double>(), 2.0);
  EXPECT_EQ(k[1][1][1].item<double>(), 1.0);
  EXPECT_THROW(init::dirac_(empty({2, 2})), ValueError);
  EXPECT_THROW(init::eye_(empty({2, 2, 2})), ValueError);
}

TEST(NNInit, OrthogonalAndTruncNormal) {
  for (auto shape : {std::vector<int64_t>{6, 4}, std::vector<int64_t>{3, 8}}) {
    auto q = empty(shape, kDouble);
    init::orthogonal_(q, 2.0);
    auto gram = shape[0] >= shape[1] ? matmul(q.t(), q) : matmul(q, q.t());
    EXPECT_TRUE(gram.allclose(4.0 * eye(gram.size(0), kDouble), 1e-9, 1e-9)) << gram;
  }
  auto t = empty({10000});
  init::trunc_normal_(t, 1.0, 2.0, -1.0, 2.0);
  EXPECT_GE(t.min().item<double>(), -1.0);
  EXPECT_LE(t.max().item<double>(), 2.0);
  // Mean of N(1, 2) truncated to [-1, 2]: 0.5867 (closed form; PyTorch's trunc_normal_ agrees).
  EXPECT_NEAR(t.mean().item<double>(), 0.5867, 0.03);
  auto u = empty({1000});
  init::uniform_(u, -3, -2);
  EXPECT_GE(u.min().item<double>(), -3);
  EXPECT_LE(u.max().item<double>(), -2);
}
