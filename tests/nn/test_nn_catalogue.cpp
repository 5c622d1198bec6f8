// The torch::nn modules issue 15 adds to the catalogue (unpooling, fractional max pooling,
// padding, LRN, CrossMapLRN2d, FeatureAlphaDropout, margin / Poisson / CTC losses): libtorch's
// option defaults, pretty_print text, and typed errors naming the module. Values and gradients
// are compared with PyTorch in the conformance family nnmodules.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  m->pretty_print(s);
  return s.str();
}

/// The message of the ValueError `fn` throws ("" when it throws none).
template <class Fn>
std::string value_error(Fn fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(NNCatalogue, PrettyPrintAsLibtorch) {
  EXPECT_EQ(printed(nn::MaxUnpool1d(5)),
            "torch::nn::MaxUnpool1d(kernel_size=5, stride=5, padding=0)");
  EXPECT_EQ(printed(nn::MaxUnpool2d(nn::MaxUnpool2dOptions({5, 6}).stride({3, 4}).padding({1, 2}))),
            "torch::nn::MaxUnpool2d(kernel_size=[5, 6], stride=[3, 4], padding=[1, 2])");
  EXPECT_EQ(printed(nn::MaxUnpool3d(2)),
            "torch::nn::MaxUnpool3d(kernel_size=[2, 2, 2], stride=[2, 2, 2], padding=[0, 0, 0])");
  EXPECT_EQ(printed(nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions(3).output_size(5))),
            "torch::nn::FractionalMaxPool2d()");
  EXPECT_EQ(printed(nn::FractionalMaxPool3d(nn::FractionalMaxPool3dOptions(2).output_ratio(0.5))),
            "torch::nn::FractionalMaxPool3d()");
  EXPECT_EQ(printed(nn::ReflectionPad1d(3)), "torch::nn::ReflectionPad1d(padding=[3, 3])");
  EXPECT_EQ(printed(nn::ReflectionPad2d(nn::ReflectionPad2dOptions({1, 1, 2, 0}))),
            "torch::nn::ReflectionPad2d(padding=[1, 1, 2, 0])");
  EXPECT_EQ(printed(nn::ReplicationPad3d(1)),
            "torch::nn::ReplicationPad3d(padding=[1, 1, 1, 1, 1, 1])");
  EXPECT_EQ(printed(nn::ZeroPad2d(2)), "torch::nn::ZeroPad2d(padding=[2, 2, 2, 2])");
  EXPECT_EQ(printed(nn::ConstantPad1d(nn::ConstantPad1dOptions({3, 1}, 3.5))),
            "torch::nn::ConstantPad1d(padding=[3, 1], value=3.5)");
  EXPECT_EQ(printed(nn::ConstantPad3d(nn::ConstantPad3dOptions(1, -2))),
            "torch::nn::ConstantPad3d(padding=[1, 1, 1, 1, 1, 1], value=-2)");
  EXPECT_EQ(printed(nn::LocalResponseNorm(2)),
            "torch::nn::LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EQ(printed(nn::LocalResponseNorm(
                nn::LocalResponseNormOptions(2).alpha(0.0002).beta(0.85).k(2.))),
            "torch::nn::LocalResponseNorm(2, alpha=0.0002, beta=0.85, k=2)");
  EXPECT_EQ(printed(nn::CrossMapLRN2d(3)),
            "torch::nn::CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EQ(printed(nn::FeatureAlphaDropout(0.2)),
            "torch::nn::FeatureAlphaDropout(p=0.2, inplace=false)");
  EXPECT_EQ(printed(nn::SoftMarginLoss()), "torch::nn::SoftMarginLoss()");
  EXPECT_EQ(printed(nn::MultiLabelMarginLoss()), "torch::nn::MultiLabelMarginLoss()");
  EXPECT_EQ(printed(nn::MultiLabelSoftMarginLoss()), "torch::nn::MultiLabelSoftMarginLoss()");
  EXPECT_EQ(printed(nn::HingeEmbeddingLoss(nn::HingeEmbeddingLossOptions().margin(2))),
            "torch::nn::HingeEmbeddingLoss(margin=2)");
  EXPECT_EQ(printed(nn::TripletMarginLoss()),
            "torch::nn::TripletMarginLoss(margin=1, p=2, eps=1e-06, swap=false)");
  EXPECT_EQ(printed(nn::TripletMarginWithDistanceLoss(
                nn::TripletMarginWithDistanceLossOptions().margin(0.5).swap(true))),
            "torch::nn::TripletMarginWithDistanceLoss(margin=0.5, swap=true)");
  EXPECT_EQ(printed(nn::PoissonNLLLoss()), "torch::nn::PoissonNLLLoss()");
  EXPECT_EQ(printed(nn::MultiMarginLoss()),
            "torch::nn::MultiMarginLoss(p=1, margin=1, weight=[ Tensor (undefined) ], "
            "reduction=kMean)");
  EXPECT_EQ(printed(nn::CTCLoss()), "torch::nn::CTCLoss()");
}

TEST(NNCatalogue, OptionDefaultsAsLibtorch) {
  nn::MaxUnpool2dOptions unpool(3);
  EXPECT_EQ(unpool.stride()[1], 3);
  EXPECT_EQ(unpool.padding()[0], 0);
  EXPECT_FALSE(nn::functional::MaxUnpool1dFuncOptions(2).output_size().has_value());
  nn::FractionalMaxPool2dOptions frac(3);
  EXPECT_FALSE(frac.output_size() || frac.output_ratio() || frac._random_samples().defined());
  nn::CrossMapLRN2dOptions lrn(3);
  EXPECT_EQ(lrn.k(), 1);
  EXPECT_DOUBLE_EQ(lrn.alpha(), 1e-4);
  nn::CTCLossOptions ctc;
  EXPECT_EQ(ctc.blank(), 0);
  EXPECT_FALSE(ctc.zero_infinity());
  EXPECT_TRUE(brasa::nn::holds_alternative<enumtype::kMean>(ctc.reduction()));
  nn::MultiMarginLossOptions mm;
  EXPECT_EQ(mm.p(), 1);
  EXPECT_DOUBLE_EQ(mm.margin(), 1.0);
  nn::PoissonNLLLossOptions pn;
  EXPECT_TRUE(pn.log_input());
  EXPECT_DOUBLE_EQ(pn.eps(), 1e-8);
  EXPECT_TRUE(
      brasa::nn::holds_alternative<enumtype::kSum>(nn::SoftMarginLossOptions(kSum).reduction()));
  EXPECT_FALSE(nn::TripletMarginWithDistanceLossOptions().distance_function().has_value());
}

TEST(NNCatalogue, FeatureAlphaDropoutIsIdentityInEvalAndKeepsStatisticsInTraining) {
  nn::FeatureAlphaDropout drop(0.3);
  Tensor x = randn({64, 32, 16});
  drop->eval();
  EXPECT_TRUE(drop(x).equal(x));
  drop->train();
  Tensor y = drop(x);
  // whole (n, c) planes are dropped: a dropped plane is constant, a kept one is not
  double dropped = y.flatten(2).std(2).lt(1e-6).to(kDouble).mean().item<double>();
  EXPECT_NEAR(dropped, 0.3, 0.05);
  EXPECT_NEAR(y.mean().item<double>(), 0.0, 0.08);
  EXPECT_NEAR(y.std().item<double>(), 1.0, 0.08);
  EXPECT_FALSE(value_error([] { nn::FeatureAlphaDropout(1.5); }).empty());
}

TEST(NNCatalogue, BadInputsNameTheModule) {
  auto contains = [](const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
  };
  Tensor x = randn({2, 3, 6, 7});
  auto [v, i] = max_pool2d_with_indices(x, {2, 2});
  nn::MaxUnpool2d unpool(2);
  EXPECT_TRUE(contains(value_error([&] {
                         unpool(v, i, std::vector<int64_t>{20, 20});
                       }),
                       "max_unpool2d"));
  EXPECT_TRUE(contains(value_error([&] { unpool(v, i.narrow(0, 0, 1)); }), "max_unpool2d"));
  EXPECT_TRUE(contains(value_error([&] {
                         unpool(v, i, std::vector<int64_t>{1, 2, 3});
                       }),
                       "output_size"));
  EXPECT_TRUE(
      contains(value_error([] { nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions(2)); }),
               "FractionalMaxPool2d"));
  EXPECT_TRUE(contains(value_error([] {
                         nn::FractionalMaxPool2d(
                             nn::FractionalMaxPool2dOptions(2).output_size(3).output_ratio(0.5));
                       }),
                       "only one of"));
  EXPECT_TRUE(contains(value_error([] {
                         nn::FractionalMaxPool3d(
                             nn::FractionalMaxPool3dOptions(2).output_ratio(1.5));
                       }),
                       "output_ratio"));
  EXPECT_TRUE(contains(value_error([] {
                         nn::CrossMapLRN2d(3)(randn({3, 4, 5}));
                       }),
                       "CrossMapLRN2d"));
  EXPECT_TRUE(contains(value_error([] { nn::MultiMarginLoss(nn::MultiMarginLossOptions().p(3)); }),
                       "MultiMarginLoss"));
  // ranks may differ (the distance broadcasts, as in libtorch); sizes that do not broadcast throw
  EXPECT_EQ(nn::TripletMarginWithDistanceLoss()(randn({2, 3}), randn({3}), randn({2, 3})).dim(), 0);
  EXPECT_FALSE(value_error([] {
                 nn::TripletMarginWithDistanceLoss()(randn({2, 3}), randn({4}), randn({2, 3}));
               }).empty());
  EXPECT_TRUE(contains(value_error([] {
                         nn::MultiLabelSoftMarginLoss()(randn({2, 3}), randn({2, 4}));
                       }),
                       "multilabel_soft_margin_loss"));
  Tensor lp = randn({6, 2, 4}).log_softmax(2);
  Tensor targets = full({2, 3}, 1, kLong);
  Tensor lengths = full({2}, 6, kLong), target_lengths = full({2}, 3, kLong);
  nn::CTCLoss ctc;
  EXPECT_TRUE(contains(value_error([&] { ctc(lp, targets, full({2}, 7, kLong), target_lengths); }),
                       "ctc_loss"));
  EXPECT_TRUE(contains(value_error([&] { ctc(lp, targets, full({3}, 6, kLong), target_lengths); }),
                       "input_lengths"));
  EXPECT_THROW(ctc(lp, full({2, 3}, 0, kLong), lengths, target_lengths), IndexError);
  EXPECT_THROW(ctc(lp, targets.to(kFloat), lengths, target_lengths), TypeError);
}
