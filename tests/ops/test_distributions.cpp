// poisson, binomial and normal_functional (Note [Rejection samplers] in
// src/ops/random/distribution_ops.cpp): sample moments against the distributions' for small and
// large parameters (both samplers of each), edge parameters, shapes and dtypes, broadcasting,
// reproducibility and thread-count independence, derivatives as in PyTorch, and errors.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};

// Sample mean and variance of a 1-d double tensor.
std::pair<double, double> moments(const Tensor& s) {
  Tensor d = s.to(kDouble);
  return {d.mean().item<double>(), d.var().item<double>()};
}

// The mean of n draws lies within 5 standard errors of mu; the variance within 5 of its own
// standard error (approximated as var * sqrt(2 / n) plus the fourth-moment excess, kept generous).
void expect_moments(const Tensor& s, double mu, double var, const char* what) {
  const double n = double(s.numel());
  auto [m, v] = moments(s);
  EXPECT_NEAR(m, mu, 5 * std::sqrt(var / n) + 1e-12) << what;
  EXPECT_NEAR(v, var, 5 * var * std::sqrt(3.0 / n) + 1e-12) << what;
}

}  // namespace

TEST(Distributions, PoissonMoments) {
  Generator g = make_generator(11);
  for (double rate : {0.3, 4.0, 9.9, 10.0, 37.5, 1e4}) {
    Tensor s = poisson(full({40000}, rate, kDouble), g);
    EXPECT_EQ(s.scalar_type(), kDouble);
    EXPECT_TRUE(equal(s, s.floor())) << rate;
    EXPECT_GE(s.min().item<double>(), 0) << rate;
    expect_moments(s, rate, rate, "poisson");
  }
}

TEST(Distributions, PoissonPmfSmallRate) {
  // P(0), P(1), P(2) of rate 1.5 from 100000 draws (float32 rates, float32 result).
  Generator g = make_generator(5);
  Tensor s = poisson(full({100000}, 1.5), g);
  EXPECT_EQ(s.scalar_type(), kFloat);
  const double e = std::exp(-1.5);
  const double pmf[] = {e, 1.5 * e, 1.125 * e};
  for (int k = 0; k < 3; ++k) {
    const double freq = s.eq(double(k)).to(kDouble).mean().item<double>();
    EXPECT_NEAR(freq, pmf[k], 5 * std::sqrt(pmf[k] * (1 - pmf[k]) / 1e5)) << k;
  }
}

TEST(Distributions, PoissonEdgesAndShapes) {
  Tensor rates = tensor({0.0, 0.0, 2.0, 3.0, 0.0, 1e9}).reshape({2, 3}).t();
  Tensor s = poisson(rates);
  EXPECT_EQ(s.sizes(), IntArrayRef({3, 2}));
  EXPECT_TRUE(s.is_contiguous());
  EXPECT_EQ(s[0][0].item<double>(), 0.0);
  EXPECT_EQ(s[1][0].item<double>(), 0.0);
  EXPECT_EQ(s[1][1].item<double>(), 0.0);
  EXPECT_NEAR(s[2][1].item<double>(), 1e9, 5 * std::sqrt(1e9));
  EXPECT_EQ(poisson(tensor(2.0)).dim(), 0);
  EXPECT_EQ(poisson(empty({0, 4})).sizes(), IntArrayRef({0, 4}));
  EXPECT_EQ(poisson(ones({3}, kHalf)).scalar_type(), kHalf);
}

TEST(Distributions, BinomialMoments) {
  Generator g = make_generator(3);
  const struct {
    double n, p;
  } cases[] = {{5, 0.3}, {30, 0.2}, {50, 0.5}, {1000, 0.3}, {1000, 0.97}, {1e7, 0.01}, {20, 0.9}};
  for (const auto& c : cases) {
    Tensor s = binomial(full({40000}, c.n, kDouble), full({40000}, c.p, kDouble), g);
    EXPECT_TRUE(equal(s, s.floor()));
    EXPECT_GE(s.min().item<double>(), 0);
    EXPECT_LE(s.max().item<double>(), c.n);
    expect_moments(s, c.n * c.p, c.n * c.p * (1 - c.p), "binomial");
  }
}

TEST(Distributions, BinomialEdgesAndBroadcast) {
  Tensor s = binomial(tensor({0.0, 7.0, 7.0, 1e9}), tensor({0.5, 0.0, 1.0, 1.0}));
  EXPECT_TRUE(equal(s, tensor({0.0, 0.0, 7.0, 1e9})));
  // count [2, 3] with prob [3]: broadcast; count's dtype.
  Tensor b = binomial(full({2, 3}, 4.0), tensor({0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(b.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(b.scalar_type(), kFloat);
  EXPECT_TRUE(equal(b.select(1, 0), zeros({2})));
  EXPECT_TRUE(equal(b.select(1, 2), full({2}, 4.0)));
  EXPECT_EQ(binomial(tensor(3.0), tensor(0.5)).dim(), 0);
  EXPECT_EQ(binomial(empty({0}), tensor(0.5)).numel(), 0);
}

TEST(Distributions, SeededAndThreadIndependent) {
  ThreadCountGuard guard;
  Tensor rates = rand({5000}, make_generator(1)) * 30;
  Tensor counts = (rand({5000}, make_generator(2)) * 200).floor();
  Tensor probs = rand({5000}, make_generator(4));
  manual_seed(99);
  set_num_threads(1);
  Tensor p1 = poisson(rates), b1 = binomial(counts, probs);
  manual_seed(99);
  set_num_threads(4);
  Tensor p2 = poisson(rates), b2 = binomial(counts, probs);
  EXPECT_TRUE(equal(p1, p2));
  EXPECT_TRUE(equal(b1, b2));
  Generator ph = make_generator(8, GeneratorKind::Philox);
  Tensor p3 = poisson(rates, ph);
  expect_moments(p3 - rates, 0.0, rates.mean().item<double>(), "poisson philox");
  EXPECT_FALSE(equal(poisson(rates), poisson(rates)));  // the generator advances
}

TEST(Distributions, NormalFunctional) {
  Tensor self = zeros({3, 50000}).t();
  Tensor s = normal_functional(self, 2.0, 0.5, make_generator(21));
  EXPECT_EQ(s.sizes(), self.sizes());
  EXPECT_EQ(s.strides(), self.strides());       // a clone's layout
  EXPECT_TRUE(equal(self, zeros({50000, 3})));  // self untouched
  expect_moments(s.flatten(), 2.0, 0.25, "normal_functional");
  EXPECT_TRUE(equal(normal_functional(self, 1.5, 0.0), full({50000, 3}, 1.5)));
  Generator a = make_generator(4), b = make_generator(4);
  EXPECT_TRUE(
      equal(normal_functional(ones({7}, kDouble), 0, 1, a), ones({7}, kDouble).normal_(0, 1, b)));
  EXPECT_EQ(torch::normal_functional(ones({2}, kHalf)).scalar_type(), kHalf);
}

TEST(Distributions, Derivatives) {
  Tensor rate = full({4}, 3.0).requires_grad_();
  Tensor y = poisson(rate);
  ASSERT_TRUE(y.requires_grad());
  y.sum().backward();
  EXPECT_TRUE(equal(rate.grad(), zeros({4})));

  Tensor count = full({4}, 3.0).requires_grad_(), prob = full({4}, 0.5).requires_grad_();
  Tensor b = binomial(count, prob);
  ASSERT_TRUE(b.requires_grad());
  EXPECT_THROW(b.sum().backward(), NotImplementedError);
  EXPECT_FALSE(binomial(count.detach(), prob.detach()).requires_grad());

  Tensor x = ones({3}).requires_grad_();
  Tensor n = normal_functional(x);
  ASSERT_TRUE(n.requires_grad());
  EXPECT_THROW(n.sum().backward(), NotImplementedError);
}

TEST(Distributions, Errors) {
  EXPECT_THROW(poisson(tensor({1.0, -1.0})), ValueError);
  EXPECT_THROW(poisson(tensor({NAN})), ValueError);
  EXPECT_THROW(poisson(tensor({INFINITY})), ValueError);
  EXPECT_THROW(poisson(tensor({1, 2})), TypeError);
  EXPECT_THROW(binomial(tensor({5.0}), tensor({1.5})), ValueError);
  EXPECT_THROW(binomial(tensor({5.0}), tensor({-0.1})), ValueError);
  EXPECT_THROW(binomial(tensor({5.0}), tensor({NAN})), ValueError);
  EXPECT_THROW(binomial(tensor({-1.0}), tensor({0.5})), ValueError);
  EXPECT_THROW(binomial(tensor({2.5}), tensor({0.5})), ValueError);
  EXPECT_THROW(binomial(tensor({2.0}, kDouble), tensor({0.5})), TypeError);
  EXPECT_THROW(binomial(tensor({2, 3}), tensor({1, 1})), TypeError);
  EXPECT_THROW(binomial(ones({3}), ones({2})), Error);
  EXPECT_THROW(normal_functional(ones({2}), 0, -1), ValueError);
  EXPECT_THROW(normal_functional(tensor({1, 2})), TypeError);
}
