// BatchNorm/InstanceNorm/LayerNorm/RMSNorm/GroupNorm modules: PyTorch equivalence of outputs,
// gradients and running statistics (torch 1.13 runs the same cases, kPythonCases), buffers,
// printing, errors.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "support/layer_test_util.h"
#include "support/torch_oracle.h"

using namespace brasa;
using layer_test::det;

namespace {
// PyTorch's half of the *MatchesPyTorch cases below, keyed "<case>:<tensor>".
const char* const kPythonCases = R"PY(
def batch_norm_three_steps(bn):
    bn.double()
    set_param(bn, "weight", 0.11, 0.5, 1.0)
    set_param(bn, "bias", 0.5, 0.1, 0.1)
    for k in range(3):
        bn.zero_grad()
        y, gx = forward_backward(bn, det((4, 3, 5, 5), 0.3 + 0.1 * k, k, 1 + k) + k)
    return y, gx

def report_affine(case, m, y, gx):
    pr(case + ":y", y)
    pr(case + ":x.grad", gx)
    pr(case + ":weight.grad", m.weight.grad)
    pr(case + ":bias.grad", m.bias.grad)

for case, momentum in (("bn", 0.1), ("bn_cumulative", None)):
    bn = torch.nn.BatchNorm2d(3, momentum=momentum)
    y, gx = batch_norm_three_steps(bn)
    report_affine(case, bn, y, gx)
    pr(case + ":running_mean", bn.running_mean)
    pr(case + ":running_var", bn.running_var)
    bn.eval()
    pr(case + ":eval_y", bn(det((2, 3, 4, 4), 0.23, 0.3, 2.0)))

ln = torch.nn.LayerNorm([5, 6]).double()
set_param(ln, "weight", 0.11, 0.5, 1.0)
set_param(ln, "bias", 0.5, 0.1, 0.1)
report_affine("ln", ln, *forward_backward(ln, det((3, 4, 5, 6), 0.37, 0.1, 2.0)))

gn = torch.nn.GroupNorm(2, 6).double()
set_param(gn, "weight", 0.11, 0.5, 1.0)
set_param(gn, "bias", 0.5, 0.1, 0.1)
report_affine("gn", gn, *forward_backward(gn, det((2, 6, 4, 4), 0.37, 0.1, 2.0)))
)PY";

const std::map<std::string, std::vector<double>>& pytorch() {
  return testing_oracle::run_python_shared(std::string(layer_test::kPython) + kPythonCases);
}

void expect_matches(const std::string& key, const Tensor& t) {
  testing_oracle::expect_close(key, t, pytorch(), 1e-9);
}

template <typename M>
void expect_affine_matches(const std::string& c, const M& m, const Tensor& y, const Tensor& gx) {
  expect_matches(c + ":y", y);
  expect_matches(c + ":x.grad", gx);
  expect_matches(c + ":weight.grad", m->weight.grad());
  expect_matches(c + ":bias.grad", m->bias.grad());
}

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
  expect_affine_matches("bn", bn, y, gx);
  expect_matches("bn:running_mean", bn->running_mean);
  expect_matches("bn:running_var", bn->running_var);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
  EXPECT_EQ(bn->num_batches_tracked.scalar_type(), kLong);
  bn->eval();
  expect_matches("bn:eval_y", bn(det({2, 3, 4, 4}, 0.23, 0.3, 2.0)));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
}

TEST(NNNormLayers, BatchNorm2dCumulativeAverageMatchesPyTorch) {
  nn::BatchNorm2d bn(nn::BatchNorm2dOptions(3).momentum(std::nullopt));
  Tensor y, gx;
  batch_norm_three_steps(bn, y, gx);
  expect_affine_matches("bn_cumulative", bn, y, gx);
  expect_matches("bn_cumulative:running_mean", bn->running_mean);
  expect_matches("bn_cumulative:running_var", bn->running_var);
  bn->eval();
  expect_matches("bn_cumulative:eval_y", bn(det({2, 3, 4, 4}, 0.23, 0.3, 2.0)));
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
  expect_affine_matches("ln", ln, y, gx);
  EXPECT_EQ(printed(ln), "torch::nn::LayerNorm([5, 6], eps=1e-05, elementwise_affine=true)");
  EXPECT_THROW(ln(randn({3, 6, 5}, TensorOptions(kDouble))), ValueError);
}

TEST(NNNormLayers, GroupNormMatchesPyTorch) {
  nn::GroupNorm gn(2, 6);
  gn->to(kDouble);
  layer_test::set_param(*gn, "weight", 0.11, 0.5, 1.0);
  layer_test::set_param(*gn, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(gn, det({2, 6, 4, 4}, 0.37, 0.1, 2.0));
  expect_affine_matches("gn", gn, y, gx);
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
