// Conv/ConvTranspose/pooling/resampling modules: PyTorch equivalence of outputs and gradients
// (torch 1.13 runs the same cases, kPythonCases), default init, printing, errors.
#include <gtest/gtest.h>

#include <cmath>
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
def run(case, conv, wa, wb, ws, x):
    conv.double()
    set_param(conv, "weight", wa, wb, ws)
    set_param(conv, "bias", 0.5, 0.1, 0.1)
    y, gx = forward_backward(conv, x)
    pr(case + ":y", y)
    pr(case + ":x.grad", gx)
    pr(case + ":weight.grad", conv.weight.grad)
    pr(case + ":bias.grad", conv.bias.grad)

nn = torch.nn
run("reflect", nn.Conv2d(4, 6, 3, padding=1, groups=2, padding_mode="reflect"), 0.11, 0.0, 0.3,
    det((2, 4, 7, 7), 0.37, 0.1))
run("circular", nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=(2, 1), dilation=(1, 2),
                          padding_mode="circular"), 0.13, 0.2, 0.3, det((2, 3, 8, 6), 0.29, 0.4))
run("transpose", nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
    0.11, 0.0, 0.3, det((2, 4, 5, 5), 0.37, 0.1))
)PY";

template <typename M>
void expect_matches_pytorch(const std::string& c, const M& conv, const Tensor& y,
                            const Tensor& gx) {
  const auto& pytorch =
      testing_oracle::run_python_shared(std::string(layer_test::kPython) + kPythonCases);
  testing_oracle::expect_close(c + ":y", y, pytorch, 1e-9);
  testing_oracle::expect_close(c + ":x.grad", gx, pytorch, 1e-9);
  testing_oracle::expect_close(c + ":weight.grad", conv->weight.grad(), pytorch, 1e-9);
  testing_oracle::expect_close(c + ":bias.grad", conv->bias.grad(), pytorch, 1e-9);
}

template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}
}  // namespace

TEST(NNConvLayers, Conv2dGroupsReflectMatchesPyTorch) {
  nn::Conv2d conv(nn::Conv2dOptions(4, 6, 3).padding(1).groups(2).padding_mode(kReflect));
  conv->to(kDouble);
  layer_test::set_param(*conv, "weight", 0.11, 0.0, 0.3);
  layer_test::set_param(*conv, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(conv, det({2, 4, 7, 7}, 0.37, 0.1));
  EXPECT_EQ(y.sizes(), IntArrayRef({2, 6, 7, 7}));
  expect_matches_pytorch("reflect", conv, y, gx);
}

TEST(NNConvLayers, Conv2dCircularStrideDilationMatchesPyTorch) {
  nn::Conv2d conv(nn::Conv2dOptions(3, 4, {3, 2})
                      .stride({2, 1})
                      .padding(ExpandingArray<2>({2, 1}))
                      .dilation({1, 2})
                      .padding_mode(kCircular));
  conv->to(kDouble);
  layer_test::set_param(*conv, "weight", 0.13, 0.2, 0.3);
  layer_test::set_param(*conv, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(conv, det({2, 3, 8, 6}, 0.29, 0.4));
  EXPECT_EQ(y.sizes(), IntArrayRef({2, 4, 5, 6}));
  expect_matches_pytorch("circular", conv, y, gx);
}

TEST(NNConvLayers, ConvTranspose2dMatchesPyTorch) {
  nn::ConvTranspose2d conv(
      nn::ConvTranspose2dOptions(4, 6, 3).stride(2).padding(1).output_padding(1).groups(2));
  conv->to(kDouble);
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({4, 3, 3, 3}));
  layer_test::set_param(*conv, "weight", 0.11, 0.0, 0.3);
  layer_test::set_param(*conv, "bias", 0.5, 0.1, 0.1);
  auto [y, gx] = layer_test::forward_backward(conv, det({2, 4, 5, 5}, 0.37, 0.1));
  EXPECT_EQ(y.sizes(), IntArrayRef({2, 6, 10, 10}));
  expect_matches_pytorch("transpose", conv, y, gx);
  // output_size picks the output padding: 9 and 10 are both reachable from 5 with stride 2.
  nn::ConvTranspose2d plain(nn::ConvTranspose2dOptions(4, 6, 3).stride(2).padding(1));
  auto x = randn({1, 4, 5, 5});
  EXPECT_EQ(plain(x).sizes(), IntArrayRef({1, 6, 9, 9}));
  EXPECT_EQ(plain->forward(x, std::vector<int64_t>{10, 10}).sizes(), IntArrayRef({1, 6, 10, 10}));
  EXPECT_THROW(plain->forward(x, std::vector<int64_t>{12, 12}), ValueError);
}

TEST(NNConvLayers, ConvVariantsShapes) {
  EXPECT_EQ(nn::Conv1d(nn::Conv1dOptions(2, 3, 3).padding(kSame))(randn({4, 2, 9})).sizes(),
            IntArrayRef({4, 3, 9}));
  EXPECT_EQ(
      nn::Conv1d(nn::Conv1dOptions(2, 3, 4).padding(kSame).padding_mode(kReplicate))(randn({2, 9}))
          .sizes(),
      IntArrayRef({3, 9}));
  EXPECT_EQ(nn::Conv2d(nn::Conv2dOptions(2, 3, 3).padding(kValid))(randn({1, 2, 6, 5})).sizes(),
            IntArrayRef({1, 3, 4, 3}));
  EXPECT_EQ(nn::Conv3d(nn::Conv3dOptions(2, 4, 3).stride(2))(randn({1, 2, 7, 7, 7})).sizes(),
            IntArrayRef({1, 4, 3, 3, 3}));
  EXPECT_EQ(nn::ConvTranspose1d(2, 3, 3)(randn({1, 2, 5})).sizes(), IntArrayRef({1, 3, 7}));
  nn::Conv2d nobias(nn::Conv2dOptions(2, 3, 3).bias(false));
  EXPECT_EQ(nobias->parameters().size(), 1u);
}

TEST(NNConvLayers, DefaultInitStatistics) {
  manual_seed(0);
  nn::Conv2d conv(nn::Conv2dOptions(16, 64, 5));
  // kaiming_uniform_(a = sqrt(5)) on fan_in = 16 * 25: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  const double bound = 1.0 / std::sqrt(400.0);
  EXPECT_LE(conv->weight.abs().max().item<double>(), bound);
  EXPECT_GT(conv->weight.abs().max().item<double>(), 0.99 * bound);
  EXPECT_NEAR(conv->weight.mean().item<double>(), 0.0, 0.05 * bound);
  EXPECT_NEAR(conv->weight.std().item<double>(), bound / std::sqrt(3.0), 0.03 * bound);
  EXPECT_LE(conv->bias.abs().max().item<double>(), bound);
  nn::ConvTranspose2d convt(nn::ConvTranspose2dOptions(8, 6, 3).groups(2));
  const double tbound = 1.0 / std::sqrt(3.0 * 9.0);  // fan_in = weight.size(1) * 9
  EXPECT_LE(convt->bias.abs().max().item<double>(), tbound);
  EXPECT_GT(convt->weight.abs().max().item<double>(), 0.9 * tbound);
}

TEST(NNConvLayers, Printing) {
  EXPECT_EQ(printed(nn::Conv2d(nn::Conv2dOptions(1, 32, 3).padding(1))),
            "torch::nn::Conv2d(1, 32, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])");
  EXPECT_EQ(
      printed(nn::Conv1d(
          nn::Conv1dOptions(2, 4, 3).padding(kSame).dilation(2).groups(2).bias(false).padding_mode(
              kReflect))),
      "torch::nn::Conv1d(2, 4, kernel_size=3, stride=1, padding='same', dilation=2, "
      "groups=2, bias=false, padding_mode=kReflect)");
  EXPECT_EQ(printed(nn::ConvTranspose2d(
                nn::ConvTranspose2dOptions(4, 6, 3).stride(2).padding(1).output_padding(1))),
            "torch::nn::ConvTranspose2d(4, 6, kernel_size=[3, 3], stride=[2, 2], padding=[1, 1], "
            "output_padding=[1, 1])");
  EXPECT_EQ(printed(nn::MaxPool2d(nn::MaxPool2dOptions(2))),
            "torch::nn::MaxPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0], "
            "dilation=[1, 1], ceil_mode=false)");
  EXPECT_EQ(printed(nn::AvgPool1d(3)), "torch::nn::AvgPool1d(kernel_size=3, stride=3, padding=0)");
  EXPECT_EQ(printed(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({std::nullopt, 7}))),
            "torch::nn::AdaptiveAvgPool2d(output_size=[None, 7])");
  EXPECT_EQ(printed(nn::PixelShuffle(2)), "torch::nn::PixelShuffle(upscale_factor=2)");
  EXPECT_EQ(printed(nn::Upsample(
                nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}).mode(kBilinear))),
            "torch::nn::Upsample(scale_factor=[2, 2], mode=kBilinear)");
}

TEST(NNConvLayers, PoolingAndResamplingModulesMatchFunctionals) {
  namespace F = nn::functional;
  auto x = randn({2, 3, 8, 8});
  nn::MaxPool2d mp(nn::MaxPool2dOptions(3).stride(2).padding(1));
  EXPECT_TRUE(mp(x).equal(F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2).padding(1))));
  auto [values, indices] = mp->forward_with_indices(x);
  EXPECT_TRUE(values.equal(mp(x)));
  EXPECT_EQ(indices.scalar_type(), kLong);
  nn::MaxPool1d mp1(2);
  EXPECT_EQ(mp1(randn({2, 3, 9})).sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(std::get<1>(mp1->forward_with_indices(randn({2, 3, 9}))).sizes(),
            IntArrayRef({2, 3, 4}));
  EXPECT_EQ(nn::AvgPool2d(2)(x).sizes(), IntArrayRef({2, 3, 4, 4}));
  EXPECT_TRUE(nn::AvgPool1d(2)(randn({3, 8})).defined());
  EXPECT_EQ(nn::AdaptiveAvgPool1d(3)(randn({2, 3, 8})).sizes(), IntArrayRef({2, 3, 3}));
  EXPECT_TRUE(nn::AdaptiveAvgPool2d(1)(x).allclose(x.mean({2, 3}, true), 1e-5, 1e-6));
  nn::AdaptiveMaxPool2d amp(nn::AdaptiveMaxPool2dOptions({2, std::nullopt}));
  EXPECT_EQ(amp(x).sizes(), IntArrayRef({2, 3, 2, 8}));
  EXPECT_EQ(std::get<1>(amp->forward_with_indices(x)).sizes(), IntArrayRef({2, 3, 2, 8}));
  auto ps = nn::PixelShuffle(2)(randn({1, 8, 3, 3}));
  EXPECT_EQ(ps.sizes(), IntArrayRef({1, 2, 6, 6}));
  EXPECT_TRUE(nn::PixelUnshuffle(2)(ps).sizes() == IntArrayRef({1, 8, 3, 3}));
  nn::Upsample up(nn::UpsampleOptions().scale_factor(std::vector<double>{2, 2}));
  EXPECT_TRUE(up(x).equal(
      F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 2}))));
}

TEST(NNConvLayers, Errors) {
  nn::Conv2d conv(nn::Conv2dOptions(1, 32, 3));
  try {
    conv(randn({64, 3, 28, 28}));
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "Conv2d(1, 32, kernel_size=[3, 3]): expected input with 1 channels, got "
                  "[64, 3, 28, 28]"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(conv(randn({28, 28})), ValueError);
  EXPECT_THROW(conv(randn({1, 1, 1, 28, 28})), ValueError);
  EXPECT_NO_THROW(conv(randn({1, 28, 28})));
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(3, 4, 3).groups(2)), ValueError);
  EXPECT_THROW(nn::Conv2d(nn::Conv2dOptions(2, 4, 3).stride(2).padding(kSame)), ValueError);
  EXPECT_THROW(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(2, 4, 3).padding_mode(kReflect))(
                   randn({1, 2, 5, 5})),
               ValueError);
  EXPECT_THROW(nn::ConvTranspose2d(2, 4, 3)(randn({1, 3, 5, 5})), ValueError);
}
