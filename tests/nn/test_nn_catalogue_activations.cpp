// The torch::nn modules of issue 15's second catalogue pass: the activations Softmin, Softmax2d,
// Hardshrink, Softshrink, Tanhshrink, Threshold, RReLU and PReLU, LPPool1d/2d, CosineSimilarity,
// PairwiseDistance, Fold and Unfold: libtorch's option defaults, pretty_print text (checked
// against the same calls built with libtorch 1.13), parameters, random slopes, in-place forms
// and typed errors. Values and gradients are compared with PyTorch in the conformance families
// nnmodules (the modules) and nnfunc (their F:: forms).
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"

using namespace brasa;
namespace F = brasa::nn::functional;

namespace {

template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  m->pretty_print(s);
  return s.str();
}

/// The message of the `E` that `fn` throws ("" when it throws none).
template <class E, class Fn>
std::string error_text(Fn fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST(NNCatalogueActivations, PrettyPrintAsLibtorch) {
  EXPECT_EQ(printed(nn::Softmin(1)), "torch::nn::Softmin(dim=1)");
  EXPECT_EQ(printed(nn::Softmax2d()), "torch::nn::Softmax2d()");
  EXPECT_EQ(printed(nn::Softshrink()), "torch::nn::Softshrink(0.5)");
  EXPECT_EQ(printed(nn::Softshrink(0.25)), "torch::nn::Softshrink(0.25)");
  EXPECT_EQ(printed(nn::Hardshrink(1.5)), "torch::nn::Hardshrink(1.5)");
  EXPECT_EQ(printed(nn::Tanhshrink()), "torch::nn::Tanhshrink()");
  EXPECT_EQ(printed(nn::Threshold(0.5, 2)), "torch::nn::Threshold(threshold=0.5, value=2)");
  EXPECT_EQ(printed(nn::Threshold(nn::ThresholdOptions(1, 2.5).inplace(true))),
            "torch::nn::Threshold(threshold=1, value=2.5, inplace=true)");
  EXPECT_EQ(printed(nn::PReLU()), "torch::nn::PReLU(num_parameters=1)");
  EXPECT_EQ(printed(nn::PReLU(nn::PReLUOptions().num_parameters(3).init(0.1))),
            "torch::nn::PReLU(num_parameters=3)");
  EXPECT_EQ(printed(nn::RReLU()), "torch::nn::RReLU(lower=0.125, upper=0.333333)");
  EXPECT_EQ(printed(nn::RReLU(nn::RReLUOptions().lower(0.1).upper(0.4).inplace(true))),
            "torch::nn::RReLU(lower=0.1, upper=0.4, inplace=true)");
  EXPECT_EQ(printed(nn::LPPool1d(2, 3)),
            "torch::nn::LPPool1d(norm_type=2, kernel_size=3, stride=3, ceil_mode=false)");
  EXPECT_EQ(printed(nn::LPPool1d(nn::LPPool1dOptions(1.5, 3).stride(2).ceil_mode(true))),
            "torch::nn::LPPool1d(norm_type=1.5, kernel_size=3, stride=2, ceil_mode=true)");
  EXPECT_EQ(printed(nn::LPPool2d(2, 3)),
            "torch::nn::LPPool2d(norm_type=2, kernel_size=[3, 3], stride=[3, 3], ceil_mode=false)");
  EXPECT_EQ(printed(nn::LPPool2d(nn::LPPool2dOptions(2, {2, 3}).stride({1, 2}).ceil_mode(true))),
            "torch::nn::LPPool2d(norm_type=2, kernel_size=[2, 3], stride=[1, 2], ceil_mode=true)");
  EXPECT_EQ(printed(nn::CosineSimilarity()), "torch::nn::CosineSimilarity(dim=1, eps=1e-08)");
  EXPECT_EQ(printed(nn::CosineSimilarity(nn::CosineSimilarityOptions().dim(0).eps(1e-5))),
            "torch::nn::CosineSimilarity(dim=0, eps=1e-05)");
  EXPECT_EQ(printed(nn::PairwiseDistance()),
            "torch::nn::PairwiseDistance(p=2, eps=1e-06, keepdim=false)");
  EXPECT_EQ(
      printed(nn::PairwiseDistance(nn::PairwiseDistanceOptions().p(1).eps(1e-5).keepdim(true))),
      "torch::nn::PairwiseDistance(p=1, eps=1e-05, keepdim=true)");
  EXPECT_EQ(printed(nn::Fold(nn::FoldOptions({4, 5}, {2, 2}))),
            "torch::nn::Fold(output_size=[4, 5], kernel_size=[2, 2], dilation=[1, 1], "
            "padding=[0, 0], stride=[1, 1])");
  EXPECT_EQ(printed(nn::Fold(nn::FoldOptions(4, 2).dilation(2).padding(1).stride(3))),
            "torch::nn::Fold(output_size=[4, 4], kernel_size=[2, 2], dilation=[2, 2], "
            "padding=[1, 1], stride=[3, 3])");
  EXPECT_EQ(printed(nn::Unfold(nn::UnfoldOptions({2, 2}))),
            "torch::nn::Unfold(kernel_size=[2, 2], dilation=[1, 1], padding=[0, 0], "
            "stride=[1, 1])");
  EXPECT_EQ(printed(nn::Unfold(nn::UnfoldOptions(3).dilation(2).padding({1, 0}).stride(2))),
            "torch::nn::Unfold(kernel_size=[3, 3], dilation=[2, 2], padding=[1, 0], "
            "stride=[2, 2])");
}

TEST(NNCatalogueActivations, OptionDefaultsAsLibtorch) {
  EXPECT_DOUBLE_EQ(nn::HardshrinkOptions().lambda(), 0.5);
  EXPECT_DOUBLE_EQ(nn::SoftshrinkOptions().lambda(), 0.5);
  EXPECT_DOUBLE_EQ(nn::RReLUOptions().lower(), 1.0 / 8);
  EXPECT_DOUBLE_EQ(nn::RReLUOptions().upper(), 1.0 / 3);
  EXPECT_FALSE(F::RReLUFuncOptions().training());
  EXPECT_EQ(nn::PReLUOptions().num_parameters(), 1);
  EXPECT_DOUBLE_EQ(nn::PReLUOptions().init(), 0.25);
  EXPECT_FALSE(nn::ThresholdOptions(1, 2).inplace());
  EXPECT_FALSE(F::SoftminFuncOptions(0).dtype().has_value());
  nn::LPPool2dOptions lp(2, {2, 3});
  EXPECT_EQ(lp.stride()[0], 2);
  EXPECT_EQ(lp.stride()[1], 3);
  EXPECT_FALSE(lp.ceil_mode());
  EXPECT_EQ(nn::FoldOptions(4, 2).stride()[1], 1);
  EXPECT_EQ(nn::UnfoldOptions(3).padding()[0], 0);
  // the functional spellings are the same structs, as in libtorch
  static_assert(std::is_same_v<F::FoldFuncOptions, nn::FoldOptions>);
  static_assert(std::is_same_v<F::LPPool1dFuncOptions, nn::LPPool1dOptions>);
  static_assert(std::is_same_v<F::ThresholdFuncOptions, nn::ThresholdOptions>);
}

TEST(NNCatalogueActivations, PReLUWeightIsAParameterWithPReLUsGradient) {
  nn::PReLU m(nn::PReLUOptions().num_parameters(3).init(0.1));
  auto params = m->named_parameters();
  ASSERT_EQ(params.size(), 1u);
  EXPECT_EQ(params.begin()->key(), "weight");
  EXPECT_EQ(m->weight.sizes().vec(), std::vector<int64_t>({3}));
  EXPECT_TRUE(m->weight.equal(full({3}, 0.1)));
  Tensor x = randn({4, 3, 5});
  m(x).sum().backward();
  // d/dw_c sum(prelu(x)) = the sum of channel c's non-positive inputs
  Tensor expected = where(x.gt(0), zeros_like(x), x).sum({0, 2});
  EXPECT_TRUE(m->weight.grad().allclose(expected, 1e-5, 1e-6));
  auto copy = std::dynamic_pointer_cast<nn::PReLUImpl>(m->clone());
  ASSERT_TRUE(copy);
  EXPECT_TRUE(copy->weight.equal(m->weight));
  EXPECT_NE(copy->weight.data_ptr(), m->weight.data_ptr());
}

TEST(NNCatalogueActivations, RReLUDrawsSlopesInTrainingAndUsesTheirMeanInEval) {
  nn::RReLU m(nn::RReLUOptions().lower(0.1).upper(0.3));
  Tensor x = cat({-rand({2000}) - 0.5, rand({100}) + 0.5});
  Tensor y = m(x);  // a module starts in training mode
  Tensor slopes = (y / x).narrow(0, 0, 2000);
  EXPECT_GE(slopes.min().item<double>(), 0.1 - 1e-6);
  EXPECT_LE(slopes.max().item<double>(), 0.3 + 1e-6);
  EXPECT_NEAR(slopes.mean().item<double>(), 0.2, 0.01);
  EXPECT_GT(slopes.std().item<double>(), 0.03);  // not one slope for all
  EXPECT_TRUE(y.narrow(0, 2000, 100).equal(x.narrow(0, 2000, 100)));
  m->eval();
  EXPECT_TRUE(m(x).allclose(where(x.gt(0), x, x * 0.2)));
  Tensor z = x.clone();
  nn::RReLU in_place(nn::RReLUOptions().inplace(true));
  in_place->eval();
  Tensor r = in_place(z);
  EXPECT_EQ(r.data_ptr(), z.data_ptr());
  EXPECT_TRUE(z.allclose(where(x.gt(0), x, x * (1.0 / 8 + 1.0 / 3) / 2)));
}

TEST(NNCatalogueActivations, ThresholdInPlaceWritesItsInput) {
  Tensor x = tensor({0.2, 0.7, 0.5});
  nn::Threshold m(nn::ThresholdOptions(0.5, -1).inplace(true));
  Tensor y = m(x);
  EXPECT_EQ(y.data_ptr(), x.data_ptr());
  EXPECT_TRUE(x.equal(tensor({-1.0, 0.7, -1.0})));
  EXPECT_TRUE(F::threshold(tensor({1, 5}), F::ThresholdFuncOptions(2, 9)).equal(tensor({9, 5})));
}

TEST(NNCatalogueActivations, ModulesComputeTheirFunctionals) {
  Tensor x = randn({2, 3, 4, 5});
  EXPECT_TRUE(nn::Softmin(1)(x).allclose((-x).softmax(1)));
  EXPECT_TRUE(nn::Softmax2d()(x).allclose(x.softmax(1)));
  EXPECT_TRUE(nn::Softmax2d()(x[0]).allclose(x[0].softmax(0)));
  EXPECT_TRUE(nn::Tanhshrink()(x).allclose(x - x.tanh()));
  EXPECT_TRUE(nn::Hardshrink(0.7)(x).equal(where(x.abs().gt(0.7), x, zeros_like(x))));
  Tensor lp = nn::LPPool1d(2, 2)(x.flatten(0, 1));
  Tensor manual = x.flatten(0, 1).pow(2).narrow(2, 0, 4).unflatten(2, {2, 2}).sum(3).sqrt();
  EXPECT_TRUE(lp.allclose(manual, 1e-5, 1e-6));
  Tensor a = randn({4, 6}), b = randn({4, 6});
  EXPECT_TRUE(nn::CosineSimilarity()(a, b).allclose(F::cosine_similarity(a, b)));
  EXPECT_TRUE(nn::PairwiseDistance()(a, b).allclose((a - b + 1e-6).norm(2, {1})));
  Tensor cols = nn::Unfold(2)(x);
  EXPECT_EQ(cols.sizes().vec(), std::vector<int64_t>({2, 12, 12}));
  EXPECT_EQ(nn::Fold(nn::FoldOptions({4, 5}, 2))(cols).sizes().vec(),
            std::vector<int64_t>({2, 3, 4, 5}));
}

TEST(NNCatalogueActivations, BadInputsThrowTypedErrorsNamingTheOp) {
  Tensor x = randn({2, 3, 4});
  EXPECT_TRUE(contains(error_text<ValueError>([] {
                         nn::Softmax2d()(randn({3, 4}));
                       }),
                       "Softmax2d"));
  EXPECT_TRUE(contains(error_text<ValueError>([] {
                         nn::Softmax2d()(randn({1, 2, 3, 4, 5}));
                       }),
                       "Softmax2d"));
  EXPECT_TRUE(contains(error_text<ValueError>([&] { nn::Softshrink(-1.0)(x); }), "softshrink"));
  EXPECT_TRUE(
      contains(error_text<ValueError>([&] { nn::PReLU(nn::PReLUOptions().num_parameters(4))(x); }),
               "prelu"));
  EXPECT_TRUE(contains(
      error_text<ValueError>([&] { nn::RReLU(nn::RReLUOptions().lower(0.5).upper(0.1))(x); }),
      "rrelu"));
  EXPECT_TRUE(contains(
      error_text<ValueError>([] { nn::PReLU(nn::PReLUOptions().num_parameters(0)); }), "PReLU"));
  EXPECT_TRUE(contains(error_text<TypeError>([] { nn::Hardshrink()(arange(4)); }), "hardshrink"));
  EXPECT_TRUE(contains(error_text<TypeError>([] { nn::Softshrink()(arange(4)); }), "softshrink"));
  EXPECT_TRUE(
      contains(error_text<TypeError>([] { nn::Threshold(0, 1)(ones({2}, kBool)); }), "threshold"));
  EXPECT_THROW(nn::LPPool2d(2, 5)(randn({1, 2, 3, 3})), Error);
  EXPECT_THROW(nn::LPPool1d(2, 2)(randn({1, 2, 3, 3})), Error);
  EXPECT_THROW(nn::CosineSimilarity()(randn({2, 3}), randn({2, 4})), Error);
  EXPECT_THROW(nn::PairwiseDistance()(randn({2, 3}), randn({2, 4})), Error);
  EXPECT_THROW(nn::Fold(nn::FoldOptions({4, 5}, 2))(randn({2, 12, 10})), Error);
  EXPECT_THROW(nn::Unfold(7)(randn({1, 2, 5, 6})), Error);
}
