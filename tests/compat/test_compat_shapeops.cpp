// The shaping, product, LU and FFT additions under their libtorch spellings (at::, torch::,
// torch::linalg::, torch::fft::), with the overloads a libtorch program picks: sections vs
// indices, string vs Scalar norms, double vs optional tolerances. Values are checked by hand;
// the conformance families (shapeops, linops, fft) compare everything with PyTorch.
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace {

torch::Tensor arange_matrix(int64_t rows, int64_t cols) {
  return torch::arange(rows * cols, torch::kDouble).reshape({rows, cols});
}

TEST(CompatShapeOps, SplitsTakeSectionsOrIndices) {
  const torch::Tensor t = torch::arange(7);
  const auto sections = torch::tensor_split(t, 3);
  ASSERT_EQ(sections.size(), 3u);
  EXPECT_EQ(sections[0].numel(), 3);
  EXPECT_EQ(sections[2].numel(), 2);
  const auto indices = torch::tensor_split(t, {1, 5});
  ASSERT_EQ(indices.size(), 3u);
  EXPECT_EQ(indices[1].numel(), 4);
  const auto by_tensor = at::tensor_split(t, torch::tensor(2, torch::kLong));
  EXPECT_EQ(by_tensor.size(), 2u);
  EXPECT_EQ(torch::hsplit(arange_matrix(2, 4), 2).size(), 2u);
  EXPECT_EQ(torch::vsplit(arange_matrix(4, 2), {1, 3}).size(), 3u);
  // A one-element braced list is the int64_t overload (sections), in libtorch too.
  EXPECT_EQ(torch::vsplit(arange_matrix(4, 2), {4}).size(), 4u);
}

TEST(CompatShapeOps, DiagonalsAndJoins) {
  const torch::Tensor v = torch::tensor({1.0, 2.0});
  EXPECT_TRUE(torch::diag(v).equal(torch::tensor({{1.0, 0.0}, {0.0, 2.0}})));
  EXPECT_TRUE(torch::diag(torch::diag(v)).equal(v));
  EXPECT_EQ(torch::diag_embed(torch::ones({3, 2})).sizes(), torch::IntArrayRef({3, 2, 2}));
  const torch::Tensor b = torch::block_diag({torch::ones({1, 1}), torch::ones({2, 2}) * 2});
  EXPECT_EQ(b.sizes(), torch::IntArrayRef({3, 3}));
  EXPECT_EQ(b[0][1].item<float>(), 0.0f);
  EXPECT_EQ(torch::cartesian_prod({torch::arange(2), torch::arange(3)}).sizes(),
            torch::IntArrayRef({6, 2}));
  EXPECT_EQ(torch::combinations(torch::arange(4), 2).size(0), 6);
  EXPECT_EQ(torch::rot90(arange_matrix(2, 3)).sizes(), torch::IntArrayRef({3, 2}));
  EXPECT_EQ(torch::atleast_3d(torch::ones({2})).sizes(), torch::IntArrayRef({1, 2, 1}));
  EXPECT_EQ(torch::broadcast_tensors({torch::ones({3, 1}), torch::ones({4})})[0].sizes(),
            torch::IntArrayRef({3, 4}));
  EXPECT_TRUE(torch::is_same_size(v, v));
  EXPECT_TRUE(torch::is_nonzero(torch::tensor(3)));
}

TEST(CompatShapeOps, IndexProducers) {
  const torch::Tensor r = at::range(0, 1, 0.25);
  EXPECT_EQ(r.numel(), 5);
  EXPECT_EQ(r.dtype(), torch::kFloat);
  EXPECT_EQ(at::range(0, 4, 1, torch::kLong).dtype(), torch::kLong);
  EXPECT_EQ(torch::tril_indices(3, 3).sizes(), torch::IntArrayRef({2, 6}));
  EXPECT_EQ(torch::triu_indices(3, 3, 1).size(1), 3);
  auto [values, inverse, counts] =
      torch::unique_consecutive(torch::tensor({1, 1, 2, 2, 1}, torch::kLong),
                                /*return_inverse=*/true,
                                /*return_counts=*/true);
  EXPECT_TRUE(values.equal(torch::tensor({1, 2, 1}, torch::kLong)));
  EXPECT_TRUE(counts.equal(torch::tensor({2, 2, 1}, torch::kLong)));
  const auto L = torch::kLong;
  EXPECT_TRUE(
      torch::vander(torch::tensor({2, 3}, L), 3).equal(torch::tensor({{4, 2, 1}, {9, 3, 1}}, L)));
  EXPECT_TRUE(
      torch::take_along_dim(torch::tensor({{10, 20}, {30, 40}}, L), torch::tensor({{1}, {0}}, L), 1)
          .equal(torch::tensor({{20}, {30}}, L)));
}

TEST(CompatShapeOps, ProductsAndMatrixFunctions) {
  const torch::Tensor a = torch::tensor({{2.0, 1.0}, {1.0, 3.0}}, torch::kDouble);
  EXPECT_TRUE(torch::allclose(torch::linalg::multi_dot({a, a, a}), a.mm(a).mm(a)));
  EXPECT_TRUE(torch::allclose(torch::matrix_power(a, -1), torch::inverse(a)));
  EXPECT_TRUE(torch::allclose(torch::linalg::matrix_exp(torch::zeros({2, 2})), torch::eye(2)));
  EXPECT_EQ(torch::kron(torch::ones({2, 2}), torch::ones({3, 3})).sizes(),
            torch::IntArrayRef({6, 6}));
  EXPECT_EQ(
      torch::tensordot(torch::ones({2, 3}), torch::ones({3, 4}), {1}, {0})[0][0].item<float>(),
      3.0f);
  const torch::Tensor e0 = torch::tensor({1.0, 0.0, 0.0}), e1 = torch::tensor({0.0, 1.0, 0.0});
  EXPECT_TRUE(torch::linalg_cross(e0, e1).equal(torch::tensor({0.0, 0.0, 1.0})));
  const double fro = torch::linalg_matrix_norm(a, "fro").item<double>() *
                     torch::linalg_matrix_norm(torch::inverse(a), "fro").item<double>();
  EXPECT_NEAR(torch::linalg::cond(a, "fro").item<double>(), fro, 1e-9);
  const torch::Tensor s = torch::linalg::svdvals(a);
  EXPECT_NEAR(torch::linalg::cond(a, 2).item<double>(), (s[0] / s[1]).item<double>(), 1e-9);
  EXPECT_EQ(torch::linalg::matrix_rank(a, 1e-3, false).item<int64_t>(), 2);
  EXPECT_EQ(at::linalg_matrix_rank(torch::ones({3, 3}, torch::kDouble)).item<int64_t>(), 1);
  auto [U, S, V] = torch::svd(a);
  EXPECT_TRUE(torch::allclose(U.mm(torch::diag(S)).mm(V.t()), a));
}

TEST(CompatShapeOps, LuFactorisation) {
  const torch::Tensor a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::kDouble);
  auto [LU, pivots] = torch::linalg::lu_factor(a);
  EXPECT_EQ(pivots.dtype(), torch::kInt);
  auto [P, L, U] = torch::lu_unpack(LU, pivots);
  EXPECT_TRUE(torch::allclose(P.mm(L).mm(U), a));
  const torch::Tensor b = torch::tensor({{1.0}, {1.0}}, torch::kDouble);
  EXPECT_TRUE(torch::allclose(torch::linalg_lu_solve(LU, pivots, b), torch::linalg::solve(a, b)));
  auto [inverse, info] = torch::linalg_inv_ex(torch::zeros({2, 2}));
  EXPECT_EQ(info.item<int>(), 1);
  EXPECT_TRUE(inverse.isnan().all().item<bool>());
  EXPECT_THROW(torch::linalg::lu_factor(torch::zeros({2, 2})), c10::Error);
}

TEST(CompatShapeOps, HermitianFftAndStft) {
  const torch::Tensor x = torch::randn({8}, torch::kDouble);
  EXPECT_TRUE(torch::allclose(torch::fft::hfft(torch::fft::ihfft(x), 8), x));
  const torch::Tensor spec = torch::stft(x, 4, c10::nullopt, c10::nullopt, c10::nullopt, true,
                                         "reflect", false, c10::nullopt, true);
  EXPECT_EQ(spec.sizes(), torch::IntArrayRef({3, 9}));
  const torch::Tensor back =
      torch::istft(spec, 4, c10::nullopt, c10::nullopt, torch::ones({4}, torch::kDouble), true,
                   false, c10::nullopt, 8);
  EXPECT_TRUE(torch::allclose(back, x));
}

}  // namespace
