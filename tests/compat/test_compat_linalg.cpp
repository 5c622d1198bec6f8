// torch::linalg and the at:: matrix functions through <torch/torch.h>, spelled as libtorch 1.13
// programs spell them (torch/linalg.h's signatures, c10::nullopt for the optional arguments).
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace {

torch::Tensor well_conditioned(int64_t n) {
  return torch::randn({n, n}, torch::kDouble) + 2.0 * n * torch::eye(n, torch::kDouble);
}

TEST(CompatLinalg, LibtorchSpellings) {
  const torch::Tensor a = well_conditioned(4);
  const torch::Tensor b = torch::randn({4, 2}, torch::kDouble);
  const torch::Tensor eye = torch::eye(4, torch::kDouble);
  EXPECT_TRUE(torch::allclose(torch::matmul(a, torch::linalg::inv(a)), eye, 1e-10, 1e-10));
  EXPECT_TRUE(torch::allclose(at::inverse(a), at::linalg_inv(a)));
  const torch::Tensor x = torch::linalg::solve(a, b, /*left=*/true);
  EXPECT_TRUE(torch::allclose(torch::matmul(a, x), b, 1e-10, 1e-10));
  EXPECT_TRUE(torch::allclose(torch::linalg::det(a), at::det(a)));
  auto [sign, logabs] = torch::linalg::slogdet(a);
  EXPECT_TRUE(torch::allclose(sign * torch::exp(logabs), torch::linalg::det(a)));
  const torch::Tensor spd = torch::matmul(a, a.t());
  const torch::Tensor l = torch::linalg::cholesky(spd);
  EXPECT_TRUE(torch::allclose(torch::matmul(l, l.t()), spd, 1e-10, 1e-8));
  auto [q, r] = torch::linalg::qr(a, "reduced");
  EXPECT_TRUE(torch::allclose(torch::matmul(q, r), a, 1e-10, 1e-10));
  auto [u, s, vh] = torch::linalg::svd(a, /*full_matrices=*/false, c10::nullopt);
  EXPECT_TRUE(torch::allclose(s, torch::linalg::svdvals(a, c10::nullopt)));
  auto [w, v] = torch::linalg::eigh(spd, "L");
  EXPECT_TRUE(torch::allclose(w, torch::linalg::eigvalsh(spd, "L")));
  auto [sol, res, rank, sv] = torch::linalg::lstsq(a, b, c10::nullopt, c10::nullopt);
  EXPECT_TRUE(torch::allclose(sol, x, 1e-10, 1e-10));
  EXPECT_TRUE(torch::allclose(torch::linalg::pinv(a), torch::linalg::inv(a), 1e-10, 1e-10));
  const torch::Tensor fro = torch::linalg::norm(a, "fro", c10::nullopt, false, c10::nullopt);
  EXPECT_TRUE(
      torch::allclose(fro, torch::linalg::vector_norm(a, 2, c10::nullopt, false, c10::nullopt)));
  EXPECT_TRUE(
      torch::allclose(torch::linalg::matrix_norm(a, 2, {-2, -1}, false, c10::nullopt), s.max()));
  EXPECT_TRUE(torch::allclose(torch::linalg::matrix_norm(a, "nuc", {-2, -1}, false, c10::nullopt),
                              s.sum()));
}

}  // namespace
