// Tensor methods libtorch 1.13 has that brasa added with the op-coverage work: mT, mH, matrix_H,
// numpy_T, is_neg, new_empty/new_empty_strided/new_zeros/new_ones/new_full, fill_diagonal_,
// sum_to_size. Expected values are PyTorch 1.13's (worked out by hand; small enough to read).
#include <gtest/gtest.h>

#include "torch/torch.h"

namespace {

TEST(CompatTensorProps, MatrixViews) {
  auto a = torch::arange(24, torch::kFloat).reshape({2, 3, 4});
  EXPECT_EQ(a.mT().sizes(), torch::IntArrayRef({2, 4, 3}));
  EXPECT_TRUE(torch::equal(a.mT(), a.transpose(-2, -1)));
  EXPECT_TRUE(torch::equal(a.mH(), a.transpose(-2, -1)));
  EXPECT_EQ(a.numpy_T().sizes(), torch::IntArrayRef({4, 3, 2}));
  EXPECT_EQ(a.numpy_T()[1][2][0].item<float>(), a[0][2][1].item<float>());
  auto z = torch::view_as_complex(torch::arange(8, torch::kFloat).reshape({2, 2, 2}));
  EXPECT_TRUE(torch::equal(z.mH(), z.transpose(0, 1).conj()));
  EXPECT_TRUE(torch::equal(z.matrix_H(), z.mH()));
  EXPECT_THROW(torch::ones({3}).mT(), c10::Error);
  EXPECT_FALSE(a.is_neg());
  // A view: writing through mT writes the tensor.
  a.mT()[0][1][2].fill_(-1);
  EXPECT_EQ(a[0][2][1].item<float>(), -1);
}

TEST(CompatTensorProps, NewFactoriesTakeDtypeAndDevice) {
  auto d = torch::ones({2}, torch::kFloat64);
  auto z = d.new_zeros({2, 3});
  EXPECT_EQ(z.scalar_type(), torch::kFloat64);
  EXPECT_EQ(z.sizes(), torch::IntArrayRef({2, 3}));
  EXPECT_EQ(z.sum().item<double>(), 0);
  EXPECT_EQ(d.new_ones({4}).sum().item<double>(), 4);
  auto f = d.new_full({2}, 7, torch::kInt32);
  EXPECT_EQ(f.scalar_type(), torch::kInt32);
  EXPECT_EQ(f[1].item<int>(), 7);
  EXPECT_EQ(d.new_empty({0}).numel(), 0);
  auto s = d.new_empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(s.strides(), torch::IntArrayRef({1, 2}));
  EXPECT_FALSE(torch::ones({1}, torch::requires_grad()).new_zeros({1}).requires_grad());
  EXPECT_TRUE(d.new_zeros({1}, torch::requires_grad()).requires_grad());
}

TEST(CompatTensorProps, FillDiagonal) {
  auto t = torch::zeros({7, 3});
  t.fill_diagonal_(5, /*wrap=*/true);
  // PyTorch: rows 0-2 and 4-6 hold the diagonal, row 3 is skipped.
  auto want = torch::zeros({7, 3});
  for (int r : {0, 1, 2}) want[r][r].fill_(5);
  for (int r : {4, 5, 6}) want[r][r - 4].fill_(5);
  EXPECT_TRUE(torch::equal(t, want));
  auto u = torch::zeros({7, 3});
  u.fill_diagonal_(1);
  EXPECT_EQ(u.sum().item<float>(), 3);
  auto w = torch::zeros({2, 5});
  w.fill_diagonal_(2, true);
  EXPECT_EQ(w.sum().item<float>(), 4);
  auto c = torch::zeros({3, 3, 3});
  c.fill_diagonal_(1);
  EXPECT_EQ(c.sum().item<float>(), 3);
  EXPECT_EQ(c[2][2][2].item<float>(), 1);
  auto nc = torch::zeros({4, 4}).t();
  nc.fill_diagonal_(3);
  EXPECT_EQ(torch::trace(nc).item<float>(), 12);
  EXPECT_THROW(torch::zeros({3, 3, 2}).fill_diagonal_(1), c10::Error);
  EXPECT_THROW(torch::zeros({3}).fill_diagonal_(1), c10::Error);
}

TEST(CompatTensorProps, SumToSize) {
  auto a = torch::ones({2, 3, 4});
  auto s = a.sum_to_size({3, 1});
  EXPECT_EQ(s.sizes(), torch::IntArrayRef({3, 1}));
  EXPECT_EQ(s[0][0].item<float>(), 8);
  EXPECT_EQ(a.sum_to_size({1}).sizes(), torch::IntArrayRef({1}));
  EXPECT_EQ(a.sum_to_size({1}).item<float>(), 24);
  EXPECT_TRUE(torch::equal(a.sum_to_size({2, 3, 4}), a));
  EXPECT_THROW(a.sum_to_size({5}), c10::Error);
  auto g = torch::ones({2, 3}, torch::requires_grad());
  g.sum_to_size({3}).sum().backward();
  EXPECT_TRUE(torch::equal(g.grad(), torch::ones({2, 3})));
}

}  // namespace
