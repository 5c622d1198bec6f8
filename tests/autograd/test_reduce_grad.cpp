// Derivatives of the reduction family (softmax, logsumexp, var/std, norm, amax/amin, max/min,
// cumsum/cumprod, sort/topk): finite-difference checks and PyTorch 1.13's values at ties/zeros.

#include <gtest/gtest.h>

#include <limits>

#include "brasa/autograd/gradcheck.h"
#include "brasa/brasa.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {
namespace {

using autograd::gradcheck;
using autograd::gradgradcheck;
using autograd::variable_list;

Tensor rand_leaf(IntArrayRef sizes) {
  return randn(sizes, TensorOptions(kDouble)).requires_grad_(true);
}

Tensor leaf(std::vector<double> v, IntArrayRef sizes) {
  return tensor(v, TensorOptions(kDouble)).reshape(sizes).detach().requires_grad_(true);
}

void expect_values(const Tensor& t, std::vector<double> v) {
  ASSERT_TRUE(t.defined());
  Tensor c = t.to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(c.numel(), static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_NEAR(c[i].item<double>(), v[i], 1e-12) << "element " << i;
}

Tensor grad_of(const Tensor& x, const std::function<Tensor(const Tensor&)>& f) {
  x.mutable_grad() = Tensor();
  f(x).sum().backward();
  return x.grad();
}

using Unary = std::function<Tensor(const Tensor&)>;
void check_both(const Tensor& x, const Unary& f, bool second = true) {
  autograd::DifferentiableFn fn = [f](const variable_list& in) -> variable_list {
    return {f(in[0])};
  };
  EXPECT_TRUE(gradcheck(fn, {x}));
  if (second) {
    EXPECT_TRUE(gradgradcheck(fn, {x}));
  }
}

TEST(ReduceGradTest, SoftmaxAndLogSoftmax) {
  manual_seed(0);
  Tensor x = rand_leaf({3, 4});
  check_both(x, [](const Tensor& t) { return t.softmax(1); });
  check_both(x, [](const Tensor& t) { return t.softmax(0); });
  check_both(x, [](const Tensor& t) { return t.log_softmax(-1); });
  check_both(x, [](const Tensor& t) { return t.transpose(0, 1).log_softmax(1); });
  Tensor w = randn({3, 4}, TensorOptions(kDouble));
  Tensor g64 = grad_of(x, [&](const Tensor& t) { return t.softmax(0) * w; });
  Tensor g32 = grad_of(x, [&](const Tensor& t) { return t.softmax(0, kFloat) * w; });
  EXPECT_EQ(g32.dtype(), kDouble);
  EXPECT_TRUE(allclose(g32, g64, 1e-5, 1e-6));
  EXPECT_EQ(x.softmax(1).grad_fn()->name(), "SoftmaxBackward0");
}

TEST(ReduceGradTest, Logsumexp) {
  manual_seed(1);
  Tensor x = rand_leaf({2, 3, 4});
  check_both(x, [](const Tensor& t) { return t.logsumexp({1}); });
  check_both(x, [](const Tensor& t) { return t.logsumexp({0, 2}, true); });
  check_both(rand_leaf({}), [](const Tensor& t) { return t.logsumexp({0}); });
}

TEST(ReduceGradTest, VarStd) {
  manual_seed(2);
  Tensor x = rand_leaf({3, 4});
  check_both(x, [](const Tensor& t) { return t.var(); });
  check_both(x, [](const Tensor& t) { return t.var({1}, false, true); });
  check_both(x, [](const Tensor& t) { return t.var(IntArrayRef{0}, int64_t{2}, false); });
  check_both(
      x, [](const Tensor& t) { return t.std({0}); }, false);
  check_both(
      x, [](const Tensor& t) { return t.std(IntArrayRef{}, int64_t{0}, true); }, false);
  // constant input: std is 0 and its gradient 0, like PyTorch.
  expect_values(grad_of(leaf({2, 2, 2}, {3}), [](const Tensor& t) { return t.std(); }), {0, 0, 0});
  // 0-d: var's gradient is 2 / dof (inf), like PyTorch.
  Tensor s = grad_of(leaf({2}, {}), [](const Tensor& t) { return t.var(); });
  EXPECT_EQ(s.item<double>(), std::numeric_limits<double>::infinity());
}

TEST(ReduceGradTest, Norm) {
  manual_seed(3);
  Tensor x = rand_leaf({3, 4});
  const double inf = std::numeric_limits<double>::infinity();
  for (double p : {2.0, 1.0, 3.0, 1.5, 0.5, inf, -inf}) {
    SCOPED_TRACE(p);
    check_both(
        x, [p](const Tensor& t) { return t.norm(p, {1}); }, false);
    check_both(
        x, [p](const Tensor& t) { return t.norm(p, {}, true); }, false);
  }
  expect_values(grad_of(x, [](const Tensor& t) { return t.norm(0.0, {}, false); }),
                std::vector<double>(12, 0.0));
  Tensor z = leaf({3, 0, 4, 0, 0, 0}, {2, 3});
  expect_values(grad_of(z, [](const Tensor& t) { return t.norm(2.0, {1}, false); }),
                {0.6, 0, 0.8, 0, 0, 0});
  expect_values(grad_of(z, [inf](const Tensor& t) { return t.norm(inf, {1}, false); }),
                {0, 0, 1, 0, 0, 0});
}

TEST(ReduceGradTest, AmaxAminSplitTies) {
  Tensor z = leaf({1, 3, 3, -2, -2, -2}, {2, 3});
  expect_values(grad_of(z, [](const Tensor& t) { return t.amax({1}); }),
                {0, 0.5, 0.5, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  expect_values(grad_of(z, [](const Tensor& t) { return t.max(); }), {0, 0.5, 0.5, 0, 0, 0});
  expect_values(grad_of(z, [](const Tensor& t) { return t.amin(); }),
                {0, 0, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  manual_seed(4);
  check_both(
      rand_leaf({3, 4}), [](const Tensor& t) { return t.amin({0}, true); }, false);
}

TEST(ReduceGradTest, MaxMinDim) {
  manual_seed(5);
  Tensor x = rand_leaf({3, 4});
  check_both(
      x, [](const Tensor& t) { return std::get<0>(t.max(1)); }, false);
  check_both(
      x, [](const Tensor& t) { return std::get<0>(t.min(0, true)); }, false);
  auto [values, indices] = x.max(1);
  EXPECT_TRUE(values.requires_grad());
  EXPECT_FALSE(indices.requires_grad());
  EXPECT_FALSE(x.argmax().requires_grad());
  EXPECT_FALSE(x.gt(0).any().requires_grad());
}

TEST(ReduceGradTest, Scans) {
  manual_seed(6);
  Tensor x = rand_leaf({3, 4});
  check_both(
      x, [](const Tensor& t) { return t.cumsum(1); }, false);
  check_both(
      x, [](const Tensor& t) { return t.cumprod(0); }, false);
  Tensor z = leaf({2, 0, 3, 0, 5, 1.5, 2, 0, -1, 2}, {2, 5});
  check_both(
      z, [](const Tensor& t) { return t.cumprod(1); }, false);
  Tensor g =
      tensor({1., 2., 3., 4., 5., 1., -1., 2., 0.5, 1.}, TensorOptions(kDouble)).reshape({2, 5});
  z.cumprod(1).backward(g);
  expect_values(z.grad(), {1, 22, 0, 0, 0, -1, -1.5, -1.5, 0, 0});
}

TEST(ReduceGradTest, SortTopk) {
  manual_seed(7);
  Tensor x = rand_leaf({3, 5});
  check_both(
      x, [](const Tensor& t) { return std::get<0>(t.sort(1, true)); }, false);
  check_both(
      x, [](const Tensor& t) { return std::get<0>(t.topk(2, 0)); }, false);
  check_both(
      x, [](const Tensor& t) { return std::get<0>(t.topk(3, 1, false)); }, false);
  EXPECT_FALSE(std::get<1>(x.sort()).requires_grad());
}

}  // namespace
}  // namespace brasa
