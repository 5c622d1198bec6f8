// Special functions and statistics beyond the conformance tables: the gradients PyTorch defines
// only in `other` (igamma, igammac, special_zeta), checked against finite differences, with the
// NotImplementedError for `self`; known values; and the libtorch spellings (at::, torch::,
// torch::special::) of the new ops.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <vector>

#include "brasa/brasa.h"
#include "support/tensor_values.h"

using namespace brasa;
using brasa::testing::make;
using brasa::testing::values;

namespace {

// d/dx of f(a, x) at x by central differences (double).
template <typename F>
std::vector<double> numeric_grad(F f, const Tensor& a, const std::vector<double>& x) {
  std::vector<double> g;
  const double h = 1e-6;
  for (double v : x) {
    Tensor hi = f(a, make({v + h}, {1}, kDouble)), lo = f(a, make({v - h}, {1}, kDouble));
    g.push_back((values(hi)[0] - values(lo)[0]) / (2 * h));
  }
  return g;
}

void expect_other_gradient(Tensor (*f)(const Tensor&, const Tensor&), double a_value,
                           const std::vector<double>& x_values) {
  Tensor a = make({a_value}, {1}, kDouble);
  Tensor x = make(x_values, {int64_t(x_values.size())}, kDouble).requires_grad_();
  f(a, x).sum().backward();
  std::vector<double> expected = numeric_grad(f, a, x_values);
  std::vector<double> got = values(x.grad());
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], 1e-6 * std::max(1.0, std::fabs(expected[i])))
        << "at x = " << x_values[i];
}

}  // namespace

TEST(Special, IncompleteGammaGradientInX) {
  expect_other_gradient(igamma, 2.5, {0.3, 1.7, 4.2});
  expect_other_gradient(igammac, 0.7, {0.2, 1.0, 6.0});
}

TEST(Special, ZetaGradientInQ) { expect_other_gradient(special_zeta, 3.0, {0.5, 1.5, 12.0}); }

TEST(Special, GradientInSelfIsNotImplemented) {
  Tensor a = make({2.5}, {1}, kDouble).requires_grad_();
  Tensor x = make({1.5}, {1}, kDouble);
  EXPECT_THROW(igamma(a, x).sum().backward(), NotImplementedError);
  EXPECT_THROW(special_zeta(a, x).sum().backward(), NotImplementedError);
}

TEST(Special, KnownValues) {
  // digamma(1) = -gamma (Euler), zeta(2, 1) = pi^2 / 6, lgamma(0.5) = log(sqrt(pi)), ndtri(0.975).
  const double pi = 3.14159265358979323846;
  EXPECT_NEAR(values(digamma(make({1.0}, {1}, kDouble)))[0], -0.5772156649015329, 1e-14);
  EXPECT_NEAR(values(special_zeta(make({2.0}, {1}, kDouble), make({1.0}, {1}, kDouble)))[0],
              pi * pi / 6, 1e-14);
  EXPECT_NEAR(values(lgamma(make({0.5}, {1}, kDouble)))[0], std::log(std::sqrt(pi)), 1e-14);
  EXPECT_NEAR(values(special_ndtri(make({0.975}, {1}, kDouble)))[0], 1.959963984540054, 1e-12);
  EXPECT_NEAR(values(special_ndtri(make({1e-300}, {1}, kDouble)))[0], -37.0470962993612, 1e-9);
  EXPECT_NEAR(values(special_erfcx(make({100.0}, {1}, kDouble)))[0], 0.005641613782989433, 1e-15);
  EXPECT_NEAR(values(i0(make({700.0}, {1}, kDouble)))[0] / 1.5295933476718735e302, 1.0, 1e-12);
}

TEST(Special, LibtorchSpellings) {
  torch::Tensor x = torch::rand({3, 4}, torch::kDouble) + 0.5;
  EXPECT_TRUE(torch::special::gammaln(x).equal(at::lgamma(x)));
  EXPECT_TRUE(torch::special::psi(x).equal(torch::digamma(x)));
  EXPECT_TRUE(torch::special::zeta(x + 1, 2.0).equal(at::special_zeta(x + 1, 2.0)));  // s > 1
  EXPECT_TRUE(torch::special::logsumexp(x, {1}).equal(torch::logsumexp(x, {1})));
  EXPECT_TRUE(torch::special::round(x, 1).equal(at::special_round(x, 1)));
  auto [values_at, indices_at] = at::median(x, 1);
  auto [values_t, indices_t] = torch::kthvalue(x, 2, 1);
  EXPECT_EQ(values_at.sizes(), values_t.sizes());
  EXPECT_TRUE(torch::nanmean(x).allclose(x.mean()));
  // var_mean(t, 1) is over dim 1, as libtorch's C++-only int overload makes it.
  auto [var1, mean1] = torch::var_mean(x, 1);
  EXPECT_EQ(var1.sizes(), IntArrayRef({3}));
  EXPECT_TRUE(mean1.allclose(x.mean({1})));
}

TEST(Special, CummaxIsALinearScan) {
  // A long line: the kernel is one pass (quadratic code would time out here).
  Tensor t = arange(1000000, TensorOptions(kDouble));
  auto [v, i] = cummax(t, 0);
  EXPECT_EQ(values(v.narrow(0, 999999, 1))[0], 999999.0);
  EXPECT_EQ(i[999999].item<int64_t>(), 999999);
}
