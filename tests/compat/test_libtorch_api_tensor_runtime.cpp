// What libtorch 1.13's own C++ API tests (tensor.cpp, tensor_indexing.cpp, tensor_options.cpp,
// functional.cpp, any.cpp) found at run time in brasa's tensors, indexing and functionals.
// Expected values are libtorch 1.13's (its tests) or Python torch 1.13's where noted.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "support/throws_with.h"

namespace {

// Python torch 1.13: torch.allclose(torch.tensor([0.1]), torch.tensor([0.]), 1.1, 0.1) is True:
// the tolerance is compared in float, where |0.1f - 0| == float(0.1). In double it was not.
TEST(LibtorchApiTensorRuntime, AllcloseComparesInTheTensorsPrecision) {
  auto x = torch::zeros({1});
  EXPECT_TRUE(torch::allclose(0.99 * x + 0.1, 1.0 * x, 1.1, 0.1));
  EXPECT_TRUE(torch::allclose(torch::tensor({0.1f}), torch::tensor({0.f}), 0.0, 0.1));
  EXPECT_FALSE(torch::allclose(torch::tensor({0.2f}), torch::tensor({0.f}), 0.0, 0.1));
  EXPECT_TRUE(torch::isclose(torch::tensor({0.1f}), torch::tensor({0.f}), 0.0, 0.1).item<bool>());
  // Double keeps its precision: 0.1 + 1e-12 is not within 0.1 of 0.
  EXPECT_FALSE(torch::allclose(torch::tensor({0.1 + 1e-12}, torch::kDouble),
                               torch::zeros({1}, torch::kDouble), 0.0, 0.1));
}

// libtorch's C++ set_default_dtype takes any dtype (its tests make Int the default).
TEST(LibtorchApiTensorRuntime, DefaultDtypeMayBeIntegral) {
  const auto before = torch::get_default_dtype();
  torch::set_default_dtype(torch::kInt);
  EXPECT_EQ(torch::ones(5).dtype(), torch::kInt);
  EXPECT_EQ(torch::TensorOptions().dtype(), torch::kInt);
  torch::set_default_dtype(before);
  EXPECT_THROW(torch::set_default_dtype(torch::ScalarType::Undefined), c10::Error);
}

// Outside training the feature dropouts return their input whatever its shape (libtorch checks
// the dims only when it draws a mask).
TEST(LibtorchApiTensorRuntime, FeatureDropoutsInEvalAcceptAnyShape) {
  namespace F = torch::nn::functional;
  auto x = torch::randn(50);
  EXPECT_TRUE(torch::equal(F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions()), x));
  EXPECT_TRUE(torch::equal(
      F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.5).training(false)), x));
  EXPECT_TRUE(torch::equal(F::dropout2d(x, F::Dropout2dFuncOptions().training(false)), x));
  EXPECT_THROW(
      F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.5).training(true)),
      c10::Error);
}

// at::tensor is ATen's form: 1-d, the dtype of the C++ element type; torch::tensor is unchanged.
TEST(LibtorchApiTensorRuntime, AtTensorIsOneDimensionalWithTheElementsDtype) {
  auto a = at::tensor(123);
  EXPECT_EQ(a.dim(), 1);
  EXPECT_EQ(a.dtype(), at::kInt);
  EXPECT_EQ(a[0].item<int32_t>(), 123);
  EXPECT_EQ(at::tensor(1.5f).dtype(), at::kFloat);
  EXPECT_EQ(at::tensor({1, 2, 3}).dtype(), at::kInt);
  EXPECT_EQ(at::tensor(std::vector<double>{1.5, 2.5}).dtype(), at::kDouble);
  auto c = at::tensor({1.5, 2.5}, at::kComplexDouble);
  EXPECT_EQ(c.dtype(), at::kComplexDouble);
  EXPECT_EQ(c[1].item<c10::complex<double>>(), c10::complex<double>(2.5));
  EXPECT_TRUE(torch::equal(at::tensor({1.1, 2.9}, at::dtype(at::kInt)), at::tensor({1, 2})));
  EXPECT_TRUE(at::tensor({1.0}, at::requires_grad()).requires_grad());
  EXPECT_THROWS_CONTAINING(c10::Error, at::tensor(c10::complex<float>(0.1f, 0.2f), at::kFloat),
                           "\"tensor_cpu\" not implemented for 'Float'");
  // Empty lists, bools and reduced floats take the same one body (Note [One at::tensor body]).
  EXPECT_EQ(at::tensor(std::vector<double>{}).sizes(), at::IntArrayRef({0}));
  EXPECT_EQ(at::tensor(std::vector<double>{}, at::kHalf).dtype(), at::kHalf);
  auto b = at::tensor({true, false, true});
  EXPECT_EQ(b.dtype(), at::kBool);
  EXPECT_EQ(b.sum().item<int64_t>(), 2);
  EXPECT_EQ(at::tensor(at::Half(0.5f)).to(at::kFloat).item<float>(), 0.5f);
  EXPECT_EQ(at::tensor(std::vector<int64_t>{5, 7}, at::kDouble)[1].item<double>(), 7.0);
  auto t = torch::tensor(123);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.dtype(), torch::kLong);
}

TEST(LibtorchApiTensorRuntime, TorchTensorErrorsUseLibtorchWords) {
  EXPECT_THROWS_CONTAINING(c10::Error,
                           torch::tensor(c10::complex<float>(0.1f, 0.2f), torch::kFloat),
                           "value cannot be converted to type float without overflow");
  EXPECT_THROWS_CONTAINING(
      c10::Error,
      torch::tensor(std::vector<c10::complex<float>>{c10::complex<float>(0.1f, 0.2f)},
                    torch::kFloat),
      "can not do torch::tensor(complex, dtype=non-complex)");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::tensor({{5, 6}, {7}}),
                           "Expected all sub-lists to have sizes: 2 (e.g. {5, 6}), but got "
                           "sub-list {7} with sizes: 1");
}

// libtorch: "Operators taking TensorOptions cannot take a TensorOptions with
// options.requires_grad set as true".
TEST(LibtorchApiTensorRuntime, ToOptionsRejectsRequiresGrad) {
  auto x = torch::ones({2});
  EXPECT_THROW(x.to(torch::TensorOptions().requires_grad(true)), c10::Error);
  EXPECT_EQ(x.to(torch::TensorOptions().dtype(torch::kDouble)).dtype(), torch::kDouble);
}

TEST(LibtorchApiTensorRuntime, IndexingRules) {
  using torch::indexing::Slice;
  auto x = torch::arange(0, 100).view({2, 5, 10});
  // The dimension of self, not of the view left after the integer indices before it.
  EXPECT_THROWS_CONTAINING(c10::Error, x.index({0, 5}),
                           "index 5 is out of bounds for dimension 1 with size 5");
  EXPECT_THROWS_CONTAINING(c10::Error, x.index({}),
                           "Passing an empty index list to Tensor::index() is not valid syntax");
  EXPECT_THROWS_CONTAINING(c10::Error, x.index_put_({}, 1),
                           "Passing an empty index list to Tensor::index_put_() is not valid");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::empty({10, 0}).index({Slice(), torch::tensor({0})}),
                           "for dimension with size 0");
  auto a = torch::arange(0, 4);
  EXPECT_THROWS_CONTAINING(c10::Error, a.index_put_({a > -1}, torch::tensor({1, 2, 3})),
                           "shape mismatch");

  // Every use of a uint8 mask warns.
  std::vector<std::string> warnings;
  auto previous = brasa::set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  auto v = torch::tensor({1, 2, 3});
  auto mask = torch::tensor({1, 0, 1}, torch::kUInt8);
  EXPECT_EQ(v.index({mask}).numel(), 2);
  EXPECT_EQ(v.index({mask}).numel(), 2);
  brasa::set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("indexing with dtype torch.uint8 is now deprecated"),
            std::string::npos);
}

TEST(LibtorchApiTensorRuntime, MessagesUseLibtorchWords) {
  namespace F = torch::nn::functional;
  torch::nn::AnyModule empty;
  EXPECT_THROWS_CONTAINING(c10::Error, empty.ptr(), "Cannot call ptr() on an empty AnyModule");
  EXPECT_THROWS_CONTAINING(c10::Error, empty.get<torch::nn::LinearImpl>(),
                           "Cannot call get() on an empty AnyModule");
  EXPECT_THROWS_CONTAINING(c10::Error, empty.forward(torch::ones(1)),
                           "Cannot call forward() on an empty AnyModule");
  torch::nn::AnyModule linear(torch::nn::Linear(1, 1));
  EXPECT_THROWS_CONTAINING(c10::Error, linear.forward(1.0), "Expected argument #0 to be of type");
  EXPECT_THROWS_CONTAINING(c10::Error, linear.forward(1.0), "but received value of type double");
  auto w = torch::ones({2}, torch::requires_grad()) * 2;
  EXPECT_THROWS_CONTAINING(c10::Error, w.requires_grad_(false),
                           "you can only change requires_grad flags of leaf variables.");
  EXPECT_THROWS_CONTAINING(c10::Error, F::affine_grid(torch::ones({1, 2, 3}), {-1, 1, 2, 2}, false),
                           "Expected non-zero, positive output size. Got [-1, 1, 2, 2]");
  auto log_probs = torch::randn({5, 1, 3}).log_softmax(2);
  auto targets = torch::ones({1, 2}, torch::kLong);
  EXPECT_THROWS_CONTAINING(
      c10::Error,
      torch::ctc_loss(log_probs, targets, torch::full({1}, 5.0), torch::full({1}, 2, torch::kLong)),
      "input_lengths must be integral");
  EXPECT_THROWS_CONTAINING(
      c10::Error,
      torch::ctc_loss(log_probs, targets, torch::full({1}, 5, torch::kLong), torch::full({1}, 2.0)),
      "target_lengths must be integral");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::indexing::TensorIndex(".."),
                           "Expected \"...\" to represent an ellipsis index, but got \"..\"");
}

}  // namespace
