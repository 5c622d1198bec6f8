// nn::functional: option structs, libtorch spellings, error cases and dropout statistics. Values
// against PyTorch are checked by the conformance family `nnfunc`.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "brasa/nn/functional.h"

using namespace brasa;
namespace F = brasa::nn::functional;

namespace {

void expect_close(const Tensor& a, const Tensor& b, double tol = 1e-5) {
  ASSERT_EQ(a.sizes(), b.sizes());
  EXPECT_TRUE(allclose(a.to(kDouble), b.to(kDouble), tol, tol)) << a << "\nvs\n" << b;
}

}  // namespace

TEST(NNFunctional, TorchSpellingsAndOptions) {
  namespace TF = torch::nn::functional;
  torch::Tensor x = torch::tensor({-2.0, -0.5, 0.0, 1.5});
  expect_close(TF::relu(x), torch::tensor({0.0, 0.0, 0.0, 1.5}));
  expect_close(TF::leaky_relu(x, TF::LeakyReLUFuncOptions().negative_slope(0.2)),
               torch::tensor({-0.4, -0.1, 0.0, 1.5}));
  expect_close(TF::hardtanh(x, TF::HardtanhFuncOptions().min_val(-1).max_val(1)),
               torch::tensor({-1.0, -0.5, 0.0, 1.0}));
  expect_close(TF::softmax(x, TF::SoftmaxFuncOptions(0)), torch::softmax(x, 0));
  Tensor t = torch::tensor({0.0, 0.0, 0.0, 0.0});
  expect_close(TF::mse_loss(x, t, TF::MSELossFuncOptions(torch::kSum)), torch::tensor(6.5));
  expect_close(TF::l1_loss(x, t, TF::L1LossFuncOptions().reduction(torch::kNone)), x.abs());
  EXPECT_EQ(TF::LeakyReLUFuncOptions().negative_slope(), 1e-2);
  EXPECT_EQ(TF::GELUFuncOptions().approximate(), "none");
}

TEST(NNFunctional, InplaceWritesInput) {
  Tensor x = tensor({-1.0, 2.0});
  Tensor r = F::relu(x, F::ReLUFuncOptions(true));
  EXPECT_TRUE(r.is_same(x));
  expect_close(x, tensor({0.0, 2.0}));
  Tensor y = tensor({-1.0, 2.0});
  F::elu(y, F::ELUFuncOptions().inplace(true));
  expect_close(y, tensor({std::expm1(-1.0), 2.0}));
}

TEST(NNFunctional, ActivationErrors) {
  Tensor i = tensor({1, 2});
  EXPECT_THROW(F::elu(i), TypeError);
  EXPECT_THROW(F::gelu(tensor({1.0}), F::GELUFuncOptions().approximate("erf")), ValueError);
  EXPECT_THROW(F::glu(tensor({1.0, 2.0, 3.0})), ValueError);
  EXPECT_THROW(F::glu(tensor({1.0, 2.0}), F::GLUFuncOptions(2)), IndexError);
  EXPECT_THROW(F::hardtanh(tensor({1}, kByte), F::HardtanhFuncOptions().min_val(-1)), ValueError);
  expect_close(F::hardtanh(tensor({-3, 0, 3}), F::HardtanhFuncOptions().min_val(-1.5).max_val(2.5)),
               tensor({-1, 0, 2}));
  // relu and hardtanh keep integral dtypes.
  EXPECT_EQ(F::relu(tensor({-1, 3})).scalar_type(), kLong);
  EXPECT_EQ(F::relu6(tensor({-1, 9})).scalar_type(), kLong);
}

TEST(NNFunctional, SoftplusThresholdAndLogsigmoidStable) {
  Tensor x = tensor({-1000.0, 0.0, 1000.0});
  Tensor sp = F::softplus(x);
  EXPECT_TRUE(sp.isfinite().all().item<bool>());
  EXPECT_NEAR(sp[2].item<double>(), 1000.0, 1e-9);
  Tensor ls = F::logsigmoid(x);
  EXPECT_NEAR(ls[0].item<double>(), -1000.0, 1e-9);
  EXPECT_NEAR(ls[2].item<double>(), 0.0, 1e-12);
}

TEST(NNFunctional, NormalisationShapeErrors) {
  Tensor x = randn({2, 3, 4});
  EXPECT_THROW(F::layer_norm(x, F::LayerNormFuncOptions({3})), ValueError);
  EXPECT_THROW(F::layer_norm(x, F::LayerNormFuncOptions({4}).weight(ones({3}))), ValueError);
  EXPECT_THROW(F::group_norm(x, F::GroupNormFuncOptions(2)), ValueError);
  EXPECT_THROW(F::batch_norm(x, Tensor(), Tensor()), ValueError);
  EXPECT_THROW(
      F::batch_norm(randn({1, 3}), Tensor(), Tensor(), F::BatchNormFuncOptions().training(true)),
      ValueError);
  EXPECT_THROW(F::layer_norm(tensor({1, 2}), F::LayerNormFuncOptions({2})), TypeError);
  EXPECT_THROW(F::normalize(tensor({1, 2})), TypeError);
}

TEST(NNFunctional, BatchNormUpdatesRunningStats) {
  Tensor x = tensor({{1.0, 2.0}, {3.0, 6.0}});
  Tensor rm = zeros({2}, kDouble), rv = ones({2}, kDouble);
  Tensor y = F::batch_norm(x, rm, rv, F::BatchNormFuncOptions().training(true).momentum(0.5));
  expect_close(rm, tensor({1.0, 2.0}));                          // 0.5 * 0 + 0.5 * mean
  expect_close(rv, tensor({0.5 + 0.5 * 2.0, 0.5 + 0.5 * 8.0}));  // unbiased var 2 and 8
  expect_close(y, tensor({{-1.0, -1.0}, {1.0, 1.0}}), 1e-4);
  Tensor e = F::batch_norm(x, rm, rv);
  expect_close(e, (x - rm) / (rv + 1e-5).sqrt());
}

TEST(NNFunctional, ClassIndexErrors) {
  Tensor x = randn({3, 4});
  try {
    F::nll_loss(x, tensor({0, 5, 1}));
    FAIL() << "no throw";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("nll_loss"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find('5'), std::string::npos);
  }
  EXPECT_THROW(F::cross_entropy(x, tensor({0, -1, 1})), IndexError);
  EXPECT_THROW(F::nll_loss(x, tensor({0, 1})), ValueError);
  EXPECT_THROW(F::nll_loss(x, tensor({0.0, 1.0, 2.0}).view({3})), TypeError);
  EXPECT_THROW(F::nll_loss(x, tensor({0, 1, 2}), F::NLLLossFuncOptions().weight(ones({3}))),
               ValueError);
  EXPECT_THROW(
      F::cross_entropy(x, tensor({0, 1, 2}), F::CrossEntropyFuncOptions().label_smoothing(1.5)),
      ValueError);
  // ignore_index may be anything, in range or not.
  Tensor l = F::nll_loss(x, tensor({0, 7, 1}), F::NLLLossFuncOptions().ignore_index(7));
  expect_close(l, (x[0][0] + x[2][1]).neg() / 2);
  EXPECT_TRUE(F::nll_loss(x, tensor({-100, -100, -100})).isnan().item<bool>());
}

TEST(NNFunctional, BinaryCrossEntropyErrors) {
  EXPECT_THROW(F::binary_cross_entropy(tensor({1.5}), tensor({1.0})), ValueError);
  EXPECT_THROW(F::binary_cross_entropy(tensor({0.5, 0.5}), tensor({1.0})), ValueError);
  EXPECT_THROW(F::binary_cross_entropy_with_logits(tensor({0.5, 0.5}), tensor({1.0})), ValueError);
  // log clamped at -100
  expect_close(F::binary_cross_entropy(tensor({0.0}), tensor({1.0})), tensor(100.0));
}

TEST(NNFunctional, DropoutStatistics) {
  Generator g = make_generator(123);
  Tensor x = ones({200000});
  Tensor y = F::dropout(x, F::DropoutFuncOptions().p(0.25), g);
  const double kept = y.ne(0).to(kDouble).mean().item<double>();
  EXPECT_NEAR(kept, 0.75, 0.01);
  EXPECT_TRUE(y.eq(0).logical_or(y.eq(1.0 / 0.75)).all().item<bool>());
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 0.02);
  // same seed, same mask
  Tensor y2 = F::dropout(x, F::DropoutFuncOptions().p(0.25), make_generator(123));
  EXPECT_TRUE(equal(y, y2));
  // not training / p == 0 return the input; p == 1 zeroes it
  EXPECT_TRUE(F::dropout(x, F::DropoutFuncOptions().training(false)).is_same(x));
  EXPECT_TRUE(F::dropout(x, F::DropoutFuncOptions().p(1)).eq(0).all().item<bool>());
  EXPECT_THROW(F::dropout(x, F::DropoutFuncOptions().p(1.5)), ValueError);
  EXPECT_THROW(F::dropout(x, F::DropoutFuncOptions().p(-0.1)), ValueError);
  EXPECT_THROW(F::dropout(tensor({1, 2})), TypeError);
}

TEST(NNFunctional, Dropout2dZeroesWholeChannels) {
  Tensor x = ones({64, 32, 3, 3});
  Tensor y = F::dropout2d(x, F::Dropout2dFuncOptions().p(0.5), make_generator(7));
  Tensor per_channel_max = y.amax({2, 3});
  Tensor per_channel_min = y.amin({2, 3});
  EXPECT_TRUE(equal(per_channel_max, per_channel_min));
  EXPECT_NEAR(per_channel_max.ne(0).to(kDouble).mean().item<double>(), 0.5, 0.05);
  EXPECT_THROW(F::dropout2d(ones({3})), ValueError);
}

TEST(NNFunctional, AlphaDropoutKeepsMeanAndVariance) {
  Tensor x = randn({400000}, make_generator(1), kDouble);
  Tensor y =
      F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.2).training(true), make_generator(2));
  EXPECT_NEAR(y.mean().item<double>(), 0.0, 0.01);
  EXPECT_NEAR(y.std().item<double>(), 1.0, 0.01);
  EXPECT_TRUE(F::alpha_dropout(x).is_same(x));  // training defaults to false
}

TEST(NNFunctional, RmsNorm) {
  Tensor x = tensor({{3.0, 4.0}, {1.0, -1.0}});
  Tensor w = tensor({1.0, 2.0});
  Tensor y = F::rms_norm(x, F::RMSNormFuncOptions({2}).weight(w).eps(0.0));
  const double r0 = std::sqrt(12.5);
  expect_close(y, tensor({{3.0 / r0, 8.0 / r0}, {1.0, -2.0}}));
  EXPECT_THROW(F::rms_norm(x, F::RMSNormFuncOptions({3})), ValueError);
  EXPECT_THROW(F::rms_norm(x, F::RMSNormFuncOptions({2}).weight(ones({3}))), ValueError);
}

TEST(NNFunctional, InstanceNormRunningStats) {
  Tensor x = tensor({{{1.0, 3.0}}, {{5.0, 9.0}}});  // [N=2, C=1, L=2]
  Tensor rm = zeros({1}, kDouble), rv = ones({1}, kDouble);
  F::instance_norm(x, F::InstanceNormFuncOptions().running_mean(rm).running_var(rv).momentum(1));
  expect_close(rm, tensor({(2.0 + 7.0) / 2}));
  expect_close(rv, tensor({(2.0 + 8.0) / 2}));  // unbiased per-instance variances 2 and 8
}
