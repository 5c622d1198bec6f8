// multinomial, exponential_, geometric_ and the generator state: statistics with fixed seeds,
// distinct samples without replacement, thread-count independence, state round trips, errors.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <set>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};

// Pearson's chi-square of observed category counts against expected probabilities.
double chi_square(const Tensor& samples, const std::vector<double>& probs) {
  std::vector<double> count(probs.size(), 0.0);
  Tensor s = samples.contiguous();
  const int64_t* p = s.data_ptr<int64_t>();
  for (int64_t i = 0; i < s.numel(); ++i) count[size_t(p[i])] += 1;
  double chi = 0;
  for (size_t c = 0; c < probs.size(); ++c) {
    const double e = probs[c] * double(s.numel());
    if (e > 0)
      chi += (count[c] - e) * (count[c] - e) / e;
    else
      EXPECT_EQ(count[c], 0.0) << "category " << c << " has probability 0";
  }
  return chi;
}

}  // namespace

TEST(Sampling, MultinomialWithReplacementChiSquare) {
  Generator g = make_generator(123);
  Tensor w = tensor({1.0, 2.0, 0.0, 3.0, 4.0});  // unnormalised
  Tensor s = multinomial(w, 20000, true, g);
  EXPECT_EQ(s.scalar_type(), kLong);
  EXPECT_EQ(s.sizes(), IntArrayRef({20000}));
  // 3 degrees of freedom (one zero category): chi2 < 16.3 at p = 0.001.
  EXPECT_LT(chi_square(s, {0.1, 0.2, 0.0, 0.3, 0.4}), 16.3);
}

TEST(Sampling, MultinomialWithoutReplacement) {
  Generator g = make_generator(7);
  Tensor w = rand({50, 10}, g) + 0.01;
  Tensor s = w.multinomial(10, false, g);
  ASSERT_EQ(s.sizes(), IntArrayRef({50, 10}));
  for (int64_t r = 0; r < 50; ++r) {
    std::set<int64_t> seen;
    for (int64_t j = 0; j < 10; ++j) seen.insert(s[r][j].item<int64_t>());
    EXPECT_EQ(seen.size(), 10u);
  }
  // First draw of a single sample without replacement follows the weights.
  Tensor first = tensor({0.5, 0.25, 0.25}).expand({20000, 3}).multinomial(1, false, g);
  EXPECT_LT(chi_square(first, {0.5, 0.25, 0.25}), 13.8);
  // Zero-weight categories come after every positive one.
  Tensor z = tensor({0.0, 1.0, 0.0, 2.0}).multinomial(4, false, g);
  std::set<int64_t> head{z[0].item<int64_t>(), z[1].item<int64_t>()};
  EXPECT_EQ(head, (std::set<int64_t>{1, 3}));
}

TEST(Sampling, MultinomialReproducibleAcrossThreads) {
  ThreadCountGuard guard;
  Tensor w = rand({64, 100}, make_generator(1));
  set_num_threads(1);
  Tensor a = w.multinomial(30, false, make_generator(5));
  Tensor b = w.multinomial(30, true, make_generator(5));
  set_num_threads(2);
  EXPECT_TRUE(equal(a, w.multinomial(30, false, make_generator(5))));
  EXPECT_TRUE(equal(b, w.multinomial(30, true, make_generator(5))));
}

TEST(Sampling, MultinomialErrors) {
  EXPECT_THROW(tensor({1.0, -1.0}).multinomial(1), ValueError);
  EXPECT_THROW(tensor({1.0, std::nan("")}).multinomial(1), ValueError);
  EXPECT_THROW(tensor({0.0, 0.0}).multinomial(1), ValueError);
  EXPECT_THROW(tensor({1.0, 1.0}).multinomial(3), ValueError);
  EXPECT_THROW(tensor({1.0, 1.0}).multinomial(0), ValueError);
  EXPECT_THROW(ones({2, 2, 2}).multinomial(1), ValueError);
  EXPECT_THROW(ones({2}, kLong).multinomial(1), TypeError);
  EXPECT_EQ(ones({0, 3}).multinomial(2).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(tensor({1.0, 1.0}).multinomial(3, true).numel(), 3);
}

TEST(Sampling, ExponentialAndGeometricMoments) {
  Generator g = make_generator(99);
  Tensor e = empty({200000}, kDouble).exponential_(2.0, g);
  EXPECT_NEAR(e.mean().item<double>(), 0.5, 0.01);
  EXPECT_GE(e.min().item<double>(), 0.0);
  Tensor geo = empty({200000}, kInt).geometric_(0.25, g);
  EXPECT_NEAR(geo.to(kDouble).mean().item<double>(), 4.0, 0.05);  // mean 1 / p
  EXPECT_GE(geo.min().item<int>(), 1);
  Tensor strided = empty({100, 4}).t();
  strided.exponential_(1.0, g);
  EXPECT_GE(strided.min().item<float>(), 0.0f);
  EXPECT_THROW(empty({3}).exponential_(-1.0), ValueError);
  EXPECT_THROW(empty({3}, kInt).exponential_(1.0), TypeError);
  EXPECT_THROW(empty({3}).geometric_(0.0), ValueError);
  EXPECT_THROW(empty({3}).geometric_(1.0), ValueError);
}

TEST(Sampling, ThreadCountIndependentFills) {
  ThreadCountGuard guard;
  set_num_threads(1);
  Tensor a = empty({50000}).exponential_(1.0, make_generator(4));
  set_num_threads(2);
  EXPECT_TRUE(equal(a, empty({50000}).exponential_(1.0, make_generator(4))));
}

TEST(Sampling, GeneratorStateRoundTrip) {
  Generator g = make_generator(2024);
  Tensor warm = randn({7}, g);
  Tensor state = g.get_state();
  EXPECT_EQ(state.scalar_type(), kByte);
  EXPECT_EQ(state.numel(), 5056);  // libtorch's mt19937 CPU state
  Tensor a = randn({100}, g);
  g.set_state(state);
  EXPECT_TRUE(equal(a, randn({100}, g)));
  // A cached normal is part of the state.
  (void)randn({1}, g, kDouble);
  state = g.get_state();
  Tensor c = randn({3}, g, kDouble);
  g.set_state(state);
  EXPECT_TRUE(equal(c, randn({3}, g, kDouble)));
  Generator philox = make_generator(2024, GeneratorKind::Philox);
  (void)randn({7}, philox);
  Tensor pstate = philox.get_state();
  EXPECT_EQ(pstate.numel(), 16);
  Tensor pa = randn({100}, philox);
  philox.set_state(pstate);
  EXPECT_TRUE(equal(pa, randn({100}, philox)));
  EXPECT_THROW(philox.set_state(state), ValueError);

  torch::manual_seed(5);
  Tensor s = torch::get_rng_state();
  Tensor b = rand({10});
  set_rng_state(s);
  EXPECT_TRUE(equal(b, rand({10})));
  EXPECT_THROW(g.set_state(ones({5056})), TypeError);
  EXPECT_THROW(g.set_state(ones({8}, kByte)), ValueError);
}
