// What libtorch 1.13's own C++ API tests (any.cpp, tensor_options.cpp, functional.cpp) spell and
// brasa's headers lacked, each used as those tests use it. Expected values come from PyTorch 1.13.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <tuple>
#include <utility>

namespace {

using namespace torch::nn;  // NOLINT
namespace F = torch::nn::functional;

// PyTorch 1.13: torch.embedding_bag(w, i, o, False, mode, False, None, False, 2) with the
// weight, indices and offsets below (one empty bag, padding index 2 in two bags).
TEST(LibtorchApiSurface, AtenEmbeddingBagReturnsFourTensors) {
  auto w = torch::tensor(
      {{0., 5., 1.}, {3., 2., 2.}, {1., 9., 0.}, {7., 1., 3.}, {2., 2., 8.}, {4., 0., 6.}});
  auto i = torch::tensor({1, 2, 4, 5, 3, 2, 0, 1}, torch::kLong);
  auto o = torch::tensor({0, 3, 3}, torch::kLong);
  auto longs = [](std::vector<int64_t> v) { return torch::tensor(v, torch::kLong); };
  auto expect_equal = [](const torch::Tensor& a, const torch::Tensor& b) {
    ASSERT_EQ(a.sizes(), b.sizes());
    EXPECT_TRUE(torch::equal(a, b)) << a << "\n" << b;
  };
  const auto bags = longs({0, 0, 0, 2, 2, 2, 2, 2});

  auto [sum, sum_bags, sum_size, sum_max] =
      torch::embedding_bag(w, i, o, false, 0, false, torch::Tensor(), false, 2);
  expect_equal(sum, torch::tensor({{5., 4., 10.}, {0., 0., 0.}, {14., 8., 12.}}));
  expect_equal(sum_bags, bags);
  expect_equal(sum_size, longs({0, 0, 0}));
  expect_equal(sum_max, longs({0, 0, 0}));

  auto [mean, mean_bags, mean_size, mean_max] =
      at::embedding_bag(w, i, o, false, 1, false, {}, false, 2);
  expect_equal(mean, torch::tensor({{2.5, 2., 5.}, {0., 0., 0.}, {3.5, 2., 3.}}));
  expect_equal(mean_bags, bags);
  expect_equal(mean_size, longs({2, 0, 4}));
  expect_equal(mean_max, longs({2, 0, 4}));

  auto [max, max_bags, max_size, max_indices] =
      torch::embedding_bag(w, i, o, false, 2, false, torch::Tensor(), false, 2);
  expect_equal(max, torch::tensor({{3., 2., 8.}, {0., 0., 0.}, {7., 5., 6.}}));
  expect_equal(max_bags, bags);
  expect_equal(max_size, longs({2, 0, 4}));
  expect_equal(max_indices, torch::tensor({{1, 1, 4}, {0, 0, 0}, {3, 0, 5}}, torch::kLong));

  // Without padding_idx aten's sum mode leaves offset2bag empty; the 8-argument form.
  auto plain = at::embedding_bag(w, i, o);
  EXPECT_EQ(std::get<1>(plain).numel(), 0);
  expect_equal(std::get<0>(plain), torch::tensor({{6., 13., 10.}, {0., 0., 0.}, {15., 17., 12.}}));
  auto mean_plain = at::embedding_bag(w, i, o, false, 1);
  expect_equal(std::get<2>(mean_plain), longs({3, 0, 5}));

  // The first result is brasa's op: gradients reach the weight.
  auto wg = w.clone().requires_grad_();
  std::get<0>(torch::embedding_bag(wg, i, o, false, 1, false, torch::Tensor(), false, 2))
      .sum()
      .backward();
  EXPECT_NEAR(wg.grad()[1].sum().item<double>(), 3 * (0.5 + 0.25), 1e-6);
  EXPECT_THROW(at::embedding_bag(w, i, o, false, 3), c10::Error);
  EXPECT_THROW(at::embedding_bag(w, i, o, true, 1), c10::NotImplementedError);
}

TEST(LibtorchApiSurface, FunctionalDetailAlphaDropout) {
  auto x = torch::randn({100});
  EXPECT_TRUE(torch::equal(F::detail::alpha_dropout(x, 0.5, false, false), x));
  torch::manual_seed(0);
  auto a = F::detail::alpha_dropout(x, 0.5, true, false);
  torch::manual_seed(0);
  auto b = F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.5).training(true));
  EXPECT_TRUE(torch::equal(a, b));
}

TEST(LibtorchApiSurface, TypeMetaNamesScalarTypes) {
  auto meta = caffe2::TypeMeta::Make<int>();
  EXPECT_EQ(meta, torch::kInt);
  EXPECT_TRUE(meta == torch::kInt);
  EXPECT_TRUE(meta != torch::kFloat);
  EXPECT_EQ(meta.itemsize(), 4u);
  EXPECT_EQ(meta.name(), "int");
  EXPECT_EQ(caffe2::TypeMeta::Make<double>().name(), "double");
  EXPECT_TRUE(meta.Match<int>());
  EXPECT_FALSE(meta.Match<float>());
  EXPECT_EQ(c10::typeMetaToScalarType(caffe2::TypeMeta::Make<double>()), torch::kDouble);
  EXPECT_EQ(c10::scalarTypeToTypeMeta(torch::kFloat), caffe2::TypeMeta::Make<float>());
  EXPECT_FALSE(caffe2::TypeMeta().isScalarType());
  EXPECT_THROW(caffe2::TypeMeta().toScalarType(), c10::Error);

  const auto before = torch::get_default_dtype();
  torch::set_default_dtype(caffe2::TypeMeta::Make<double>());
  EXPECT_EQ(torch::ones(2).dtype(), torch::kDouble);
  at::set_default_dtype(before);
  EXPECT_EQ(torch::get_default_dtype(), before);
}

}  // namespace
