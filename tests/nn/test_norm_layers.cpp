// BatchNorm/InstanceNorm/LayerNorm/RMSNorm/GroupNorm modules: PyTorch equivalence of outputs,
// gradients and running statistics (reference numbers from torch 1.13, recipe in
// layer_test_util.h), buffers, printing, errors.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"
#include "support/layer_test_util.h"

using namespace brasa;
using layer_test::det;
using layer_test::expect_sig;

namespace {
template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}

// Three training steps on det inputs with a non-zero mean, then evaluation on another input.
void batch_norm_three_steps(nn::BatchNorm2d& bn, Tensor& y, Tensor& gx) {
  bn->to(kDouble);
  layer_test::set_param(*bn, "weight", 0.11, 0.5, 1.0);
  layer_test::set_param(*bn, "bias", 0.5, 0.1, 0.1);
  for (int k = 0; k < 3; ++k) {
    bn->zero_grad();
    std::tie(y, gx) =
        layer_test::forward_backward(bn, det({4, 3, 5, 5}, 0.3 + 0.1 * k, k, 1 + k) + k);
  }
}
}  // namespace

TEST(NNNormLayers, BatchNorm2dTrainThenEvalMatchesPyTorch) {
  nn::BatchNorm2d bn(3);
  Tensor y, gx;
  batch_norm_three_steps(bn, y, gx);
  expect_sig(y, {15.5568325, 4.48931684}, "y");
  expect_sig(gx, {-1.387778781e-15, 0.1278004585}, "x.grad");
  expect_sig(bn->weight.grad(), {-1.148077299, -0.5785330911}, "weight.grad");
  expect_sig(bn->bias.grad(), {36.92448203, 30.95151631}, "bias.grad");
  EXPECT_TRUE(bn->running_mean.allclose(
      tensor({0.2895914154361004, 0.2868984704972908, 0.29491190453112653}, kDouble), 1e-9, 1e-12));
  EXPECT_TRUE(bn->running_var.allclose(
      tensor({1.4051290658270272, 1.404499151972209, 1.404305540863758}, kDouble), 1e-9, 1e-12));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
  EXPECT_EQ(bn->num_batches_tracked.scalar_type(), kLong);
  bn->eval();
  expect_sig(bn(det({2, 3, 4, 4}, 0.23, 0.3, 2.0)), {-0.8123818493, 0.08598782953}, "eval y");
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
}

TEST(NNNormLayers, BatchNorm2dCumulativeAverageMatchesPyTorch) {
  nn::BatchNorm2d bn(nn::BatchNorm2dOptions(3).momentum(std::nullopt));
  Tensor y, gx;
  batch_norm_three_steps(bn, y, gx);
  EXPECT_TRUE(bn->running_mean.allclose(
      tensor({0.9986779136216564, 0.9899354203960467, 1.0197263225352524}, kDouble), 1e-9, 1e-12));
  EXPECT_TRUE(bn->running_var.allclose(
      tensor({2.3542250054819194, 2.3509217315589694, 2.3497973947685207}, kDouble), 1e-9, 1e-12));
  bn->eval();
  expect_sig(bn(det({2, 3, 4, 4}, 0.23, 0.3, 2.0)), {-24.97147402, -0.5051511394}, "eval y");
}

TEST(NNNormLayers, BatchNormBuffersAndOptions) {
  nn::BatchNorm1d bn(4);
  EXPECT_EQ(bn->buffers().size(), 3u);
  EXPECT_EQ(bn->parameters().size(), 2u);
  EXPECT_TRUE(bn->weight.equal(ones({4})));
  EXPECT_TRUE(bn->bias.equal(zeros({4})));
  EXPECT_EQ(bn(randn({8, 4})).sizes(), IntArrayRef({8, 4}));
  EXPECT_EQ(bn(randn({8, 4, 5})).sizes(), IntArrayRef({8, 4, 5}));
  nn::BatchNorm2d plain(nn::BatchNorm2dOptions(3).affine(false).track_running_stats(false));
  EXPECT_EQ(plain->parameters().size(), 0u);
  EXPECT_FALSE(plain->running_mean.defined());
  plain->eval();  // without running stats evaluation still normalises with batch statistics
  auto x = randn({4, 3, 5, 5}) * 3 + 2;
  auto y = plain(x);
  EXPECT_NEAR(y.mean().item<double>(), 0.0, 1e-5);
  EXPECT_EQ(printed(nn::BatchNorm2d(3)),
            "torch::nn::BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=true, "
            "track_running_stats=true)");
  EXPECT_EQ(printed(nn::BatchNorm1d(nn::BatchNorm1dOptions(2).momentum(std::nullopt))),
            "torch::nn::BatchNorm1d(2, eps=1e-05, momentum=None, affine=true, "
            "track_running_stats=true)");
  auto cloned = std::dynamic_pointer_cast<nn::BatchNorm1dImpl>(bn->clone());
  ASSERT_TRUE(cloned);
  EXPECT_TRUE(cloned->running_mean.equal(bn->running_mean));
}

TEST(NNNormLayers, BatchNormErrors) {
  nn::BatchNorm2d bn(3);
  try {
    bn(randn({2, 4, 5, 5}));
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "BatchNorm2d(3): expected input with 3 channels, got [2, 4, 5, 5]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(bn(randn({3, 5, 5})), ValueError);
  EXPECT_THROW(nn::BatchNorm1d(3)(randn({2, 3, 4, 4})), ValueError);
}

TEST(NNNormLayers, LayerNormMatchesPyTorch) {
  nn::LayerNorm ln(std::vector<int64_t>{5, 6});
  ln->to(kDouble);
  layer_test::set_param(*ln, "weight", 0.11, 0.5, 1.0);
  layer_test::set_param(*ln, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(ln, det({3, 4, 5, 6}, 0.37, 0.1, 2.0));
  expect_sig(y, {1.074957019, 1.693794385}, "y");
  expect_sig(gx, {-4.274358645e-15, -1.951927777}, "x.grad");
  expect_sig(ln->weight.grad(), {-25.66398514, -26.82054603}, "weight.grad");
  expect_sig(ln->bias.grad(), {4.07526772, 0.4822321005}, "bias.grad");
  EXPECT_EQ(printed(ln), "torch::nn::LayerNorm([5, 6], eps=1e-05, elementwise_affine=true)");
  EXPECT_THROW(ln(randn({3, 6, 5}, TensorOptions(kDouble))), ValueError);
}

TEST(NNNormLayers, GroupNormMatchesPyTorch) {
  nn::GroupNorm gn(2, 6);
  gn->to(kDouble);
  layer_test::set_param(*gn, "weight", 0.11, 0.5, 1.0);
  layer_test::set_param(*gn, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(gn, det({2, 6, 4, 4}, 0.37, 0.1, 2.0));
  expect_sig(y, {12.52178872, 1.79678214}, "y");
  expect_sig(gx, {-1.942890293e-15, -1.802420158}, "x.grad");
  expect_sig(gn->weight.grad(), {1.505002757, 7.148345667}, "weight.grad");
  expect_sig(gn->bias.grad(), {38.48447051, 54.19107034}, "bias.grad");
  EXPECT_EQ(printed(gn), "torch::nn::GroupNorm(2, 6, eps=1e-05, affine=true)");
  EXPECT_THROW(nn::GroupNorm(4, 6), ValueError);
  EXPECT_THROW(gn(randn({2, 4, 3}, TensorOptions(kDouble))), ValueError);
}

TEST(NNNormLayers, RMSNormAndInstanceNorm) {
  namespace F = nn::functional;
  nn::RMSNorm rms(std::vector<int64_t>{6});
  auto x = randn({3, 6});
  EXPECT_TRUE(rms(x).allclose(F::rms_norm(x, F::RMSNormFuncOptions({6})), 1e-5, 1e-6));
  EXPECT_EQ(printed(rms), "torch::nn::RMSNorm([6], eps=None, elementwise_affine=true)");
  nn::InstanceNorm2d in(3);
  auto img = randn({2, 3, 5, 5}) * 2 + 1;
  auto y = in(img);
  EXPECT_TRUE(y.mean({2, 3}).abs().max().item<double>() < 1e-5);
  EXPECT_EQ(in(randn({3, 5, 5})).sizes(), IntArrayRef({3, 5, 5}));
  EXPECT_EQ(printed(in),
            "torch::nn::InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=false, "
            "track_running_stats=false)");
  nn::InstanceNorm1d tracked(nn::InstanceNorm1dOptions(3).affine(true).track_running_stats(true));
  tracked(randn({4, 3, 7}) + 5);
  EXPECT_GT(tracked->running_mean.min().item<double>(), 0.3);
  EXPECT_THROW(tracked(randn({4, 2, 7})), ValueError);
}

// Found by the asan-ubsan suite (LeakSanitizer): the running-statistics update was recorded by
// autograd, so the buffers joined the graph (a reference cycle through a saved input). PyTorch
// updates them without recording: after a training forward they require no grad and have no
// grad_fn.
TEST(NNNormLayers, RunningStatisticsAreNotRecorded) {
  nn::BatchNorm2d bn(nn::BatchNorm2dOptions(3));
  Tensor x = randn({4, 3, 5, 5}).requires_grad_(true);
  bn->forward(x).sum().backward();
  EXPECT_FALSE(bn->running_mean.requires_grad());
  EXPECT_FALSE(bn->running_var.requires_grad());
  EXPECT_EQ(bn->running_mean.grad_fn(), nullptr);
  EXPECT_EQ(bn->running_var.grad_fn(), nullptr);
  nn::InstanceNorm2d in(nn::InstanceNorm2dOptions(3).track_running_stats(true));
  in->forward(x).sum().backward();
  EXPECT_FALSE(in->running_mean.requires_grad());
  EXPECT_EQ(in->running_var.grad_fn(), nullptr);
}
