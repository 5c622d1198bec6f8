// Random fills and factories: reproducibility, thread-count independence, statistics, ranges,
// errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/core/empty.h"

using namespace brasa;

namespace {
std::vector<double> as_doubles(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}
bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.numel() == b.numel() &&
         std::equal(static_cast<const char*>(a.data_ptr()),
                    static_cast<const char*>(a.data_ptr()) + a.nbytes(),
                    static_cast<const char*>(b.data_ptr()));
}
struct Moments {
  double mean, var, min, max;
};
Moments moments(const Tensor& t) {
  std::vector<double> v = as_doubles(t);
  double s = 0, s2 = 0;
  for (double x : v) s += x;
  const double mean = s / double(v.size());
  for (double x : v) s2 += (x - mean) * (x - mean);
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {mean, s2 / double(v.size() - 1), *lo, *hi};
}
// Restores the thread count when a test ends.
struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};
}  // namespace

TEST(Random, ManualSeedReproduces) {
  manual_seed(123);
  Tensor a = rand({1000});
  Tensor b = randn({1000});
  manual_seed(123);
  Tensor a2 = rand({1000});
  Tensor b2 = randn({1000});
  EXPECT_TRUE(same_bytes(a, a2));
  EXPECT_TRUE(same_bytes(b, b2));
  Tensor a3 = rand({1000});  // the stream moved on
  EXPECT_FALSE(same_bytes(a, a3));
  manual_seed(124);
  EXPECT_FALSE(same_bytes(a, rand({1000})));
}

TEST(Random, GeneratorsAreIndependent) {
  Generator g1 = make_generator(7), g2 = make_generator(7);
  Tensor x = rand({64}, g1);
  (void)rand({64}, g1);  // advancing g1 does not touch g2
  Tensor y = rand({64}, g2);
  EXPECT_TRUE(same_bytes(x, y));
  manual_seed(7);  // nor does the default generator
  (void)rand({64});
  Generator g3 = make_generator(7);
  EXPECT_TRUE(same_bytes(x, rand({64}, g3)));
  Generator g4 = g1.clone();
  EXPECT_EQ(g4.get_offset(), g1.get_offset());
  EXPECT_TRUE(same_bytes(rand({16}, g1), rand({16}, g4)));
  EXPECT_EQ(g1.current_seed(), 7u);
  g1.manual_seed(8);
  EXPECT_EQ(g1.get_offset(), 0u);
}

TEST(Random, ThreadCountDoesNotChangeResults) {
  ThreadCountGuard guard;
  const std::vector<ScalarType> dtypes = {kFloat, kDouble, kHalf, kBFloat16};
  for (GeneratorKind kind : {GeneratorKind::MT19937, GeneratorKind::Philox})
    for (ScalarType dt : dtypes) {
      std::vector<Tensor> runs;
      for (int threads : {1, 2, 3}) {
        set_num_threads(threads);
        Generator g = make_generator(99, kind);
        Tensor u = rand({100001}, g, dt);
        Tensor n = randn({100001}, g, dt);
        Tensor i = randint(-5, 1000, {100001}, g);
        Tensor b = empty({100001}).bernoulli_(0.3, g);
        runs.push_back(u), runs.push_back(n), runs.push_back(i), runs.push_back(b);
      }
      for (size_t k = 4; k < runs.size(); ++k)
        EXPECT_TRUE(same_bytes(runs[k], runs[k % 4])) << dt << k;
    }
}

TEST(Random, UniformStatistics) {
  Generator g = make_generator(1);
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    Moments m = moments(rand({1000000}, g, dt));
    EXPECT_NEAR(m.mean, 0.5, 0.003) << dt;
    EXPECT_NEAR(m.var, 1.0 / 12, 0.002) << dt;
    EXPECT_GE(m.min, 0.0);
    EXPECT_LT(m.max, 1.0);
  }
  Moments m = moments(empty({1000000}, kDouble).uniform_(-3, 5, g));
  EXPECT_NEAR(m.mean, 1.0, 0.02);
  EXPECT_NEAR(m.var, 64.0 / 12, 0.03);
  EXPECT_GE(m.min, -3.0);
  EXPECT_LT(m.max, 5.0);
  // Philox: a narrow range just below a power of two stays half-open after float rounding
  // (libtorch's MT19937 transform can round onto `to`, and brasa's does the same).
  Moments edge = moments(empty({100000}).uniform_(1, 2, make_generator(1, GeneratorKind::Philox)));
  EXPECT_LT(edge.max, 2.0);
  Tensor same = empty({10}).uniform_(3, 3, g);
  EXPECT_EQ(moments(same).max, 3.0);
}

TEST(Random, NormalStatistics) {
  Generator g = make_generator(2);
  for (ScalarType dt : {kFloat, kDouble, kHalf, kBFloat16}) {
    Moments m = moments(randn({1000000}, g, dt));
    EXPECT_NEAR(m.mean, 0.0, 0.005) << dt;
    // libtorch's BFloat16 normals come from 8-bit uniforms: the tails stop at 3.33 and the
    // variance is about 0.986 (PyTorch 1.13 gives the same); the other dtypes are within 1%.
    EXPECT_NEAR(m.var, 1.0, dt == kBFloat16 ? 0.02 : 0.01) << dt;
    EXPECT_TRUE(std::isfinite(m.min) && std::isfinite(m.max));
  }
  Moments m = moments(empty({1000000}).normal_(3, 0.5, g));
  EXPECT_NEAR(m.mean, 3.0, 0.003);
  EXPECT_NEAR(m.var, 0.25, 0.003);
  // Odd sizes: the last Box-Muller pair is cut.
  Tensor odd = empty({7}, kDouble).normal_(0, 1, g);
  for (double x : as_doubles(odd)) EXPECT_TRUE(std::isfinite(x));
}

TEST(Random, BernoulliRate) {
  Generator g = make_generator(3);
  for (double p : {0.0, 0.1, 0.5, 0.9, 1.0}) {
    Moments m = moments(empty({1000000}).bernoulli_(p, g));
    EXPECT_NEAR(m.mean, p, 0.003) << p;
  }
  Tensor b = empty({100000}, kBool).bernoulli_(0.25, g);
  EXPECT_NEAR(moments(b).mean, 0.25, 0.01);
  Tensor l = empty({1000}, kLong).bernoulli_(0.5, g);
  Moments ml = moments(l);
  EXPECT_EQ(ml.min, 0.0);
  EXPECT_EQ(ml.max, 1.0);
  EXPECT_THROW(empty({3}).bernoulli_(1.5), ValueError);
  EXPECT_THROW(empty({3}).bernoulli_(-0.1), ValueError);
}

TEST(Random, RandintRangeAndDtype) {
  Generator g = make_generator(4);
  Tensor r = randint(10, {100000}, g);
  EXPECT_EQ(r.dtype(), kLong);
  std::vector<int64_t> counts(10);
  for (double x : as_doubles(r)) {
    ASSERT_GE(x, 0);
    ASSERT_LT(x, 10);
    ++counts[int(x)];
  }
  for (int64_t c : counts) EXPECT_NEAR(double(c), 10000.0, 500.0);
  Moments m = moments(randint(-7, -2, {10000}, g));
  EXPECT_EQ(m.min, -7.0);
  EXPECT_EQ(m.max, -3.0);
  EXPECT_EQ(randint(0, 5, {3}, kFloat).dtype(), kFloat);
  EXPECT_EQ(randint(5, {3}, TensorOptions(Device(kCPU))).dtype(), kLong);
  Moments big = moments(randint(int64_t(1) << 40, {10000}, g));
  EXPECT_GT(big.max, double(int64_t(1) << 39));
  Moments u8 = moments(randint(0, 256, {10000}, g, kByte));
  EXPECT_EQ(u8.min, 0.0);
  EXPECT_EQ(u8.max, 255.0);
  Tensor bits = empty({1000}, kBool).random_(0, 2, g);
  EXPECT_NEAR(moments(bits).mean, 0.5, 0.1);
  EXPECT_THROW(randint(3, 2, {3}), ValueError);
  EXPECT_THROW(randint(5, 5, {3}), ValueError);
  EXPECT_THROW(randint(0, 300, {3}, kByte), ValueError);
  EXPECT_THROW(randint(-200, 5, {3}, kChar), ValueError);
  EXPECT_THROW(empty({3}, kBool).random_(0, 3), ValueError);
}

TEST(Random, RandpermIsAPermutation) {
  Generator g = make_generator(5);
  for (int64_t n : {0, 1, 2, 3, 17, 10000}) {
    Tensor p = randperm(n, g);
    EXPECT_EQ(p.dtype(), kLong);
    EXPECT_EQ(p.numel(), n);
    std::vector<double> v = as_doubles(p);
    std::sort(v.begin(), v.end());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(v[i], double(i));
  }
  // Shuffled, not the identity, and every position sees many values.
  std::vector<double> v = as_doubles(randperm(10000, g));
  int fixed = 0;
  for (int i = 0; i < 10000; ++i) fixed += v[i] == i;
  EXPECT_LT(fixed, 10);
  Tensor h = randperm(100, g, kHalf);
  std::vector<double> hv = as_doubles(h);
  std::sort(hv.begin(), hv.end());
  EXPECT_EQ(hv.back(), 99.0);
  EXPECT_THROW(randperm(-1), ValueError);
  EXPECT_THROW(randperm(3000, kHalf), ValueError);
  EXPECT_THROW(randperm(300, kChar), ValueError);
  EXPECT_THROW(randperm(4, kBool), TypeError);
  manual_seed(11);
  Tensor a = randperm(50);
  manual_seed(11);
  EXPECT_TRUE(same_bytes(a, randperm(50)));
}

TEST(Random, LikeFactoriesFollowSelf) {
  Tensor d = zeros({2, 3}, kDouble);
  EXPECT_EQ(rand_like(d).dtype(), kDouble);
  EXPECT_EQ(rand_like(d).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(randn_like(d, kHalf).dtype(), kHalf);
  Tensor f = zeros({4});
  Tensor ri = randint_like(f, 5);
  EXPECT_EQ(ri.dtype(), kFloat);
  for (double x : as_doubles(ri)) EXPECT_TRUE(x >= 0 && x < 5 && x == std::floor(x));
  Moments m = moments(randint_like(zeros({1000}, kInt), -3, 3));
  EXPECT_EQ(m.min, -3.0);
  EXPECT_EQ(m.max, 2.0);
  EXPECT_THROW(rand_like(zeros({2}, kLong)), TypeError);
}

TEST(Random, DtypeAndArgumentErrors) {
  EXPECT_THROW(rand({2}, kLong), TypeError);
  EXPECT_THROW(randn({2}, kInt), TypeError);
  EXPECT_THROW(empty({3}, kLong).uniform_(), TypeError);
  EXPECT_THROW(empty({3}).uniform_(2, 1), ValueError);
  EXPECT_THROW(empty({3}).uniform_(0, 1e39), ValueError);
  EXPECT_THROW(empty({3}).uniform_(INFINITY, 1), ValueError);
  EXPECT_THROW(empty({3}).normal_(0, -1), ValueError);
  try {
    empty({3}).normal_(0, -1);
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "normal expects std >= 0.0, but found std -1");
  }
}

TEST(Random, NonContiguousFillsInRowMajorOrder) {
  // A transposed view gets the same numbers, in its own row-major order, as a contiguous fill.
  Tensor base = zeros({4, 3});
  Tensor t = detail::make_view(base, {3, 4}, {1, 3}, 0);
  ASSERT_FALSE(t.is_contiguous());
  const uint32_t version = t._version();
  Generator g1 = make_generator(6, GeneratorKind::Philox),
            g2 = make_generator(6, GeneratorKind::Philox);
  t.uniform_(0, 1, g1);
  EXPECT_GT(t._version(), version);
  Tensor ref = rand({3, 4}, g2);
  const float* b = base.data_ptr<float>();
  const float* r = ref.data_ptr<float>();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b[j * 3 + i], r[i * 4 + j]);
}

TEST(Random, NonContiguousFillsInMemoryOrderWithMT19937) {
  // libtorch's order: a transposed view gets, in memory, the numbers of a contiguous fill.
  Tensor base = zeros({4, 3});
  Tensor t = base.t();
  t.uniform_(0, 1, make_generator(6));
  EXPECT_TRUE(same_bytes(base, rand({4, 3}, make_generator(6))));
}

TEST(Random, EmptyAndMetaTensors) {
  Generator g = make_generator(8, GeneratorKind::Philox);
  EXPECT_EQ(rand({0, 3}, g).numel(), 0);
  EXPECT_EQ(g.get_offset(), 0u);  // nothing drawn
  Tensor m = randn({5, 5}, g, TensorOptions(Device(kMeta)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), IntArrayRef({5, 5}));
  EXPECT_EQ(g.get_offset(), 0u);
  EXPECT_TRUE(randperm(10, g, TensorOptions(Device(kMeta))).is_meta());
  Tensor s = rand({}, g);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(g.get_offset(), 1u);
}
