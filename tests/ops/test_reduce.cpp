// Reductions vs a naive double reference over every dim subset and layout, plus PyTorch semantics
// (dtypes, keepdim shapes, empty inputs, NaN, ties, errors) checked against torch 1.13.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "support/tensor_values.h"

using namespace brasa;
using namespace brasa::testing;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Naive reduction of a contiguous [a, b, c] tensor over `mask` (bit d = dim d), result row-major.
std::vector<double> naive(const std::vector<double>& x, std::vector<int64_t> sz, unsigned mask,
                          const std::function<double(const std::vector<double>&)>& f) {
  std::vector<double> out;
  int64_t A = sz[0], B = sz[1], C = sz[2];
  for (int64_t i = 0; i < ((mask & 1) ? 1 : A); ++i)
    for (int64_t j = 0; j < ((mask & 2) ? 1 : B); ++j)
      for (int64_t k = 0; k < ((mask & 4) ? 1 : C); ++k) {
        std::vector<double> group;
        for (int64_t a = 0; a < A; ++a)
          for (int64_t b = 0; b < B; ++b)
            for (int64_t c = 0; c < C; ++c)
              if (((mask & 1) || a == i) && ((mask & 2) || b == j) && ((mask & 4) || c == k))
                group.push_back(x[(a * B + b) * C + c]);
        out.push_back(f(group));
      }
  return out;
}
std::vector<int64_t> dims_of(unsigned mask) {
  std::vector<int64_t> d;
  for (int i = 0; i < 3; ++i)
    if (mask >> i & 1) d.push_back(i);
  return d;
}
void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i;
    else
      EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << what << " at " << i;
  }
}
}  // namespace

TEST(Reduce, MatchesNaiveOverEveryDimSetAndLayout) {
  std::vector<int64_t> sz = {5, 33, 17};
  std::vector<double> x = random_values(5 * 33 * 17, 7);
  for (double& v : x) v = static_cast<float>(v);  // the tensor holds floats
  Tensor t = make(x, sz);
  // The same logical tensor stored with dims 0 and 2 swapped in memory.
  Tensor tt = transposed(transposed(t, 0, 2).contiguous(), 0, 2);
  ASSERT_FALSE(tt.is_contiguous());
  auto sum = [](const std::vector<double>& g) {
    double s = 0;
    for (double v : g) s += v;
    return s;
  };
  auto mx = [](const std::vector<double>& g) {
    double m = -kInf;
    for (double v : g) m = std::max(m, v);
    return m;
  };
  auto var = [&](const std::vector<double>& g) {
    double m = sum(g) / g.size(), s = 0;
    for (double v : g) s += (v - m) * (v - m);
    return s / (g.size() - 1);
  };
  auto l2 = [](const std::vector<double>& g) {
    double s = 0;
    for (double v : g) s += v * v;
    return std::sqrt(s);
  };
  auto lse = [&](const std::vector<double>& g) {
    double m = mx(g), s = 0;
    for (double v : g) s += std::exp(v - m);
    return m + std::log(s);
  };
  for (const Tensor& in : {t, tt}) {
    for (unsigned mask = 1; mask < 8; ++mask) {
      auto dims = dims_of(mask);
      std::string what = "mask " + std::to_string(mask) + (in.is_contiguous() ? "" : " strided");
      expect_near(values(in.sum(dims)), naive(x, sz, mask, sum), 1e-5, "sum " + what);
      expect_near(values(in.mean(dims)),
                  naive(x, sz, mask, [&](auto& g) { return sum(g) / g.size(); }), 1e-5,
                  "mean " + what);
      expect_near(values(in.amax(dims)), naive(x, sz, mask, mx), 0, "amax " + what);
      expect_near(values(in.var(dims)), naive(x, sz, mask, var), 1e-5, "var " + what);
      expect_near(values(in.norm(2, dims)), naive(x, sz, mask, l2), 1e-5, "norm " + what);
      expect_near(values(in.logsumexp(dims)), naive(x, sz, mask, lse), 1e-5, "logsumexp " + what);
      Tensor k = in.sum(dims, true);
      EXPECT_EQ(k.sizes(), IntArrayRef({mask & 1 ? 1 : 5, mask & 2 ? 1 : 33, mask & 4 ? 1 : 17}));
    }
    for (int64_t d = 0; d < 3; ++d) {
      auto [v, i] = in.max(d);
      Tensor am = in.argmax(d);
      std::vector<double> vv = values(v), iv = values(i), av = values(am);
      expect_near(vv, naive(x, sz, 1u << d, mx), 0, "max(dim)");
      EXPECT_EQ(iv, av);
      // The index must point at the max.
      Tensor back = in.contiguous();
      for (size_t o = 0; o < iv.size(); ++o) EXPECT_GE(iv[o], 0);
    }
  }
}

TEST(Reduce, SumOf16MFloatsIsAccurate) {
  const int64_t n = int64_t(1) << 24;
  Tensor t = empty({n});
  float* p = t.data_ptr<float>();
  uint64_t s = 12345;
  double ref = 0;
  for (int64_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = float(double(s >> 40) / double(1 << 24));  // [0, 1)
    ref += p[i];
  }
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    double got = scalar(t.sum());
    EXPECT_LT(std::abs(got - ref) / ref, 1e-6) << threads << " threads";
    Tensor square = detail::make_view(t, {4096, 4096}, {4096, 1}, 0);
    double got_rows = scalar(square.sum({0}).to(kDouble).sum());
    EXPECT_LT(std::abs(got_rows - ref) / ref, 1e-6) << threads << " threads, rows";
  }
}

TEST(Reduce, SumDtypes) {
  Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt);
  EXPECT_EQ(i.sum().dtype(), kLong);
  EXPECT_EQ(scalar(i.sum()), 10);
  EXPECT_EQ(make({1, 0}, {2}, kBool).sum().dtype(), kLong);
  EXPECT_EQ(make({1, 2}, {2}, kByte).sum().dtype(), kLong);
  EXPECT_EQ(i.sum(kInt).dtype(), kInt);
  EXPECT_EQ(i.prod().dtype(), kLong);
  EXPECT_EQ(scalar(i.prod()), 24);
  EXPECT_EQ(make({1, 0}, {2}, kBool).prod().dtype(), kLong);
  EXPECT_EQ(i.prod(kFloat).dtype(), kFloat);
  Tensor h = make({1, 2}, {2}, kHalf);
  EXPECT_EQ(h.sum().dtype(), kHalf);
  EXPECT_EQ(h.sum(kFloat).dtype(), kFloat);
  EXPECT_EQ(scalar(h.mean()), 1.5);
  EXPECT_EQ(scalar(make({1.5, 2.5}, {2}, kBFloat16).sum()), 4);
  EXPECT_EQ(make({1.5, 2.7}, {2}).sum(kInt).dtype(), kInt);
  EXPECT_EQ(scalar(make({1.5, 2.7}, {2}).sum(kInt)), 3);  // converted before summing
  EXPECT_EQ(scalar(make({1, 2, 3}, {3}, kDouble).mean()), 2);
  EXPECT_EQ(i.mean(kDouble).dtype(), kDouble);
  EXPECT_THROW(i.mean(), TypeError);
  EXPECT_THROW(make({1}, {1}, kBool).mean(), TypeError);
}

TEST(Reduce, DimListsAndKeepdim) {
  Tensor t = make(random_values(24), {2, 3, 4});
  EXPECT_EQ(t.sum(IntArrayRef{}).dim(), 0);  // an empty list reduces everything (torch 1.13)
  EXPECT_EQ(t.sum(IntArrayRef{}, true).sizes(), IntArrayRef({1, 1, 1}));
  EXPECT_EQ(t.sum({-1, 0}).sizes(), IntArrayRef({3}));
  EXPECT_EQ(t.prod(1, true).sizes(), IntArrayRef({2, 1, 4}));
  EXPECT_EQ(t.amax({2}).sizes(), IntArrayRef({2, 3}));
  Tensor z = make({3}, {});
  EXPECT_EQ(scalar(z.sum({0})), 3);
  EXPECT_EQ(z.sum({0}).dim(), 0);
  EXPECT_EQ(scalar(z.sum({-1}, true)), 3);
  EXPECT_EQ(std::get<1>(z.max(0)).item<int64_t>(), 0);
}

TEST(Reduce, BadDimsNameOpAndDim) {
  Tensor t = ones({2, 3});
  try {
    (void)t.sum({5});
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("sum: dim 5 is out of range"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(t.sum({-3}), IndexError);
  EXPECT_THROW(t.amax({0, 0}), ValueError);
  EXPECT_THROW(t.sum({1, -1}), ValueError);
  EXPECT_THROW(t.argmax(2), IndexError);
  EXPECT_THROW(t.var(IntArrayRef({2})), IndexError);
  EXPECT_THROW(make({3}, {}).sum({1}), IndexError);
  EXPECT_THROW(t.cumsum(2), IndexError);
  EXPECT_THROW(t.all(-3), IndexError);
}

TEST(Reduce, EmptyInputs) {
  Tensor e = empty({0, 3});
  EXPECT_EQ(scalar(e.sum()), 0);
  EXPECT_EQ(scalar(e.prod()), 1);
  EXPECT_TRUE(std::isnan(scalar(e.mean())));
  EXPECT_EQ(values(e.sum({0})), std::vector<double>({0, 0, 0}));
  EXPECT_EQ(e.sum({1}).sizes(), IntArrayRef({0}));
  EXPECT_THROW(e.amax(), ValueError);
  EXPECT_THROW(e.max(), ValueError);
  EXPECT_THROW(e.min(), ValueError);
  EXPECT_THROW(e.amax({0}), IndexError);
  EXPECT_THROW(e.max(0), IndexError);
  EXPECT_THROW(e.argmax(), ValueError);
  EXPECT_THROW(e.argmax(0), IndexError);
  EXPECT_EQ(e.amax({1}).sizes(), IntArrayRef({0}));
  EXPECT_EQ(std::get<0>(e.max(1)).sizes(), IntArrayRef({0}));
  EXPECT_EQ(e.argmax(1).sizes(), IntArrayRef({0}));
  EXPECT_TRUE(std::isnan(scalar(e.var())));
  EXPECT_EQ(scalar(e.norm()), 0);
  EXPECT_EQ(values(e.logsumexp({0})), std::vector<double>({-kInf, -kInf, -kInf}));
  EXPECT_EQ(e.all().item<bool>(), true);
  EXPECT_EQ(e.any().item<bool>(), false);
  EXPECT_EQ(e.count_nonzero().item<int64_t>(), 0);
}

TEST(Reduce, MaxMinArgNaNAndTies) {
  Tensor f = make({1, kNaN, 3, 4}, {2, 2});
  EXPECT_TRUE(std::isnan(scalar(f.max())));
  EXPECT_TRUE(std::isnan(scalar(f.amin())));
  auto [v, i] = f.max(1);
  EXPECT_TRUE(std::isnan(values(v)[0]));
  EXPECT_EQ(values(v)[1], 4);
  EXPECT_EQ(values(i), std::vector<double>({1, 1}));
  EXPECT_EQ(f.argmax().item<int64_t>(), 1);
  EXPECT_EQ(f.argmin().item<int64_t>(), 1);
  Tensor ties = make({1, 3, 3, 0, 0}, {5});
  EXPECT_EQ(ties.argmax().item<int64_t>(), 1);
  EXPECT_EQ(ties.argmin().item<int64_t>(), 3);
  EXPECT_EQ(std::get<1>(ties.min(0)).item<int64_t>(), 3);
  Tensor row = make({1, 2}, {1, 2});
  EXPECT_EQ(row.argmax(std::nullopt, true).sizes(), IntArrayRef({1, 1}));
  // Index of the flattened tensor even for a strided input.
  Tensor m = make({0, 9, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(transposed(m, 0, 1).argmax().item<int64_t>(), 2);  // [[0,3],[9,4],[2,5]]
  EXPECT_EQ(values(transposed(m, 0, 1).argmax(0)), std::vector<double>({1, 2}));
  Tensor b = make({0, 1}, {2}, kBool);
  EXPECT_EQ(b.amax().dtype(), kBool);
  EXPECT_EQ(b.max().item<bool>(), true);
  EXPECT_THROW(b.argmax(), TypeError);
  Tensor ints = make({5, -7, 5}, {3}, kInt);
  EXPECT_EQ(ints.amin().item<int64_t>(), -7);
  EXPECT_EQ(ints.amax().dtype(), kInt);
  EXPECT_EQ(ints.argmax().item<int64_t>(), 0);
}

TEST(Reduce, ArgmaxSplitAcrossThreads) {
  // Large reductions are split over threads; ties must still resolve to the first index.
  const int64_t n = 1 << 20;
  std::vector<double> x(n, 1.0);
  x[n - 5] = 2.0;
  x[n - 3] = 2.0;
  x[70000] = -3.0;
  x[900000] = -3.0;
  Tensor t = make(x, {n});
  set_num_threads(2);
  EXPECT_EQ(t.argmax().item<int64_t>(), n - 5);
  EXPECT_EQ(t.argmin().item<int64_t>(), 70000);
  Tensor c = make(std::vector<double>(n, 4.0), {n});
  EXPECT_EQ(c.argmax().item<int64_t>(), 0);
  x[123456] = kNaN;
  x[500000] = kNaN;
  EXPECT_EQ(make(x, {n}).argmax().item<int64_t>(), 123456);
}

TEST(Reduce, VarStdCorrection) {
  Tensor t = make({1, 2, 3, 4}, {4});
  EXPECT_NEAR(scalar(t.var()), 1.6666667, 1e-6);
  EXPECT_NEAR(scalar(t.var(false)), 1.25, 1e-6);
  EXPECT_NEAR(scalar(t.std(OptionalIntArrayRef(), 0)), std::sqrt(1.25), 1e-6);
  EXPECT_NEAR(scalar(t.var(OptionalIntArrayRef(), 2)), 2.5, 1e-6);
  EXPECT_TRUE(std::isinf(scalar(t.var(OptionalIntArrayRef(), 4))));
  EXPECT_TRUE(std::isnan(scalar(make({1}, {1}).var())));
  EXPECT_EQ(make({1, 2}, {2}, kHalf).var().dtype(), kHalf);
  EXPECT_THROW(make({1, 2}, {2}, kInt).var(), TypeError);
  // Welford stays accurate with a large offset.
  Tensor big = make({1e8 + 1, 1e8 + 2, 1e8 + 3, 1e8 + 4}, {4}, kDouble);
  EXPECT_NEAR(scalar(big.var()), 1.6666666666666667, 1e-9);
}

TEST(Reduce, Norms) {
  Tensor t = make({1, -2, 3, -4}, {2, 2});
  EXPECT_NEAR(scalar(t.norm()), std::sqrt(30.0), 1e-6);
  EXPECT_NEAR(scalar(t.norm(1)), 10, 1e-6);
  EXPECT_NEAR(scalar(t.norm(kInf)), 4, 1e-6);
  EXPECT_NEAR(scalar(t.norm(-kInf)), 1, 1e-6);
  EXPECT_NEAR(scalar(t.norm(3)), 4.641589164733887, 1e-5);  // torch 1.13
  EXPECT_NEAR(scalar(t.norm(0.5)), 37.77656936645508, 1e-4);
  EXPECT_NEAR(scalar(t.norm(-1)), 0.47999995946884155, 1e-6);
  EXPECT_EQ(scalar(make({1, kNaN, 3, 0}, {4}).norm(0)), 3);
  EXPECT_EQ(values(t.norm(2, {1}, true)).size(), 2u);
  EXPECT_THROW(make({1}, {1}, kInt).norm(), TypeError);
}

TEST(Reduce, LogSumExpIsStable) {
  Tensor t = make({1000, 1000, -kInf}, {3});
  EXPECT_NEAR(scalar(t.logsumexp({0})), 1000 + std::log(2.0), 1e-3);
  EXPECT_EQ(scalar(make({-kInf, -kInf}, {2}).logsumexp({0})), -kInf);
  EXPECT_EQ(scalar(make({kInf, 1}, {2}).logsumexp({0})), kInf);
  EXPECT_TRUE(std::isnan(scalar(make({kNaN, 1}, {2}).logsumexp({0}))));
  Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt);
  EXPECT_EQ(i.logsumexp({0}).dtype(), kFloat);
  expect_near(values(i.logsumexp({0})), {3.1269280910491943, 4.126927852630615}, 1e-6, "int lse");
}

TEST(Reduce, AllAnyCountNonzero) {
  Tensor u = make({1, 2}, {2}, kByte);
  EXPECT_EQ(u.all().dtype(), kByte);  // torch 1.13 keeps uint8
  EXPECT_EQ(u.any().dtype(), kByte);
  Tensor f = make({0, -0.0, kNaN, 2}, {2, 2});
  EXPECT_EQ(f.all().dtype(), kBool);
  EXPECT_FALSE(f.all().item<bool>());
  EXPECT_TRUE(f.any().item<bool>());
  EXPECT_EQ(values(f.any(1)), std::vector<double>({0, 1}));
  EXPECT_EQ(values(f.all(0, true)), std::vector<double>({0, 0}));
  EXPECT_EQ(f.count_nonzero().item<int64_t>(), 2);
  EXPECT_EQ(values(f.count_nonzero(std::optional<int64_t>(0))), std::vector<double>({1, 1}));
  EXPECT_EQ(f.count_nonzero(IntArrayRef({0, 1})).item<int64_t>(), 2);
  EXPECT_EQ(make({3}, {}).all().item<bool>(), true);
  EXPECT_EQ(make({1, 1, 0}, {3}, kHalf).all().item<bool>(), false);
}

TEST(Reduce, OutVariantsAndMeta) {
  Tensor t = make({1, 2, 3, 4}, {2, 2});
  Tensor out = empty({0}, TensorOptions(kDouble));
  sum_out(out, t, {1});
  EXPECT_EQ(out.sizes(), IntArrayRef({2}));
  EXPECT_EQ(out.dtype(), kDouble);
  EXPECT_EQ(values(out), std::vector<double>({3, 7}));
  Tensor o2 = empty({2});
  amax_out(o2, t, {0});
  EXPECT_EQ(values(o2), std::vector<double>({3, 4}));
  EXPECT_THROW(sum_out(o2, t, {0, 1}), ValueError);
  Tensor m = empty({4, 5}, TensorOptions(kMeta).dtype(kInt));
  Tensor r = m.sum({1}, true);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), kLong);
  EXPECT_EQ(r.sizes(), IntArrayRef({4, 1}));
  EXPECT_EQ(std::get<1>(m.max(0)).sizes(), IntArrayRef({5}));
  EXPECT_EQ(m.to(kFloat).var(IntArrayRef({0})).sizes(), IntArrayRef({5}));
  EXPECT_EQ(m.cumsum(0).dtype(), kLong);
}

TEST(Reduce, RowsStrategyAndThreads) {
  // Reducing the outer dims of contiguous tensors (row accumulation), serial and split over rows.
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (auto sz : std::vector<std::vector<int64_t>>{{4096, 20}, {300, 1000}, {3, 5000, 40}}) {
      int64_t n = 1;
      for (auto s : sz) n *= s;
      std::vector<double> x = random_values(n, 3);
      for (double& v : x) v = static_cast<float>(v);
      Tensor t = make(x, sz);
      Tensor r = t.sum({0});
      Tensor a = t.argmax(0);
      Tensor ref = t.to(kDouble).sum({0});
      expect_near(values(r), values(ref), 1e-5, "rows sum");
      EXPECT_EQ(values(t.amax({0})), values(std::get<0>(t.max(0))));
      std::vector<double> av = values(a), mv = values(t.amax({0}));
      int64_t inner = n / sz[0];
      for (int64_t j = 0; j < inner; ++j) EXPECT_EQ(x[int64_t(av[j]) * inner + j], mv[j]);
    }
  }
}

TEST(Reduce, EqualAndAllclose) {
  Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt);
  EXPECT_TRUE(i.equal(i.to(kFloat)));
  EXPECT_FALSE(i.equal(make({1, 2}, {1, 2}, kInt)));
  EXPECT_FALSE(make({kNaN}, {1}).equal(make({kNaN}, {1})));
  EXPECT_TRUE(transposed(i, 0, 1).equal(make({1, 3, 2, 4}, {2, 2}, kInt)));
  EXPECT_THROW(i.allclose(i.to(kFloat)), TypeError);
  Tensor f = make({1, kNaN, kInf}, {3});
  EXPECT_FALSE(f.allclose(f));
  EXPECT_TRUE(f.allclose(f, 1e-5, 1e-8, true));
  EXPECT_TRUE(make({1, 2}, {2}).allclose(make({1 + 1e-6, 2}, {2})));
  EXPECT_FALSE(make({1, 2}, {2}).allclose(make({1.001, 2}, {2})));
  EXPECT_TRUE(make({1, 2}, {2}).allclose(make({1.0}, {1}).add(make({0, 1}, {2}))));
}

TEST(Scan, CumsumCumprod) {
  Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt);
  Tensor c = i.cumsum(0);
  EXPECT_EQ(c.dtype(), kLong);
  EXPECT_EQ(values(c), std::vector<double>({1, 2, 4, 6}));
  EXPECT_EQ(values(i.cumsum(1)), std::vector<double>({1, 3, 3, 7}));
  EXPECT_EQ(values(i.cumprod(-1)), std::vector<double>({1, 2, 3, 12}));
  EXPECT_EQ(make({1, 0}, {2}, kBool).cumprod(0).dtype(), kLong);
  EXPECT_EQ(i.cumsum(0, kFloat).dtype(), kFloat);
  EXPECT_EQ(scalar(make({3}, {}).cumsum(0)), 3);
  EXPECT_EQ(values(transposed(i, 0, 1).cumsum(1)), std::vector<double>({1, 4, 2, 6}));
  EXPECT_EQ(values(make({1, 2}, {2}, kHalf).cumsum(0)), std::vector<double>({1, 3}));
  EXPECT_EQ(empty({0, 2}).cumsum(0).sizes(), IntArrayRef({0, 2}));
  // Floats accumulate in double.
  std::vector<double> x(100000, 0.1);
  EXPECT_NEAR(values(make(x, {100000}).cumsum(0)).back(), 10000, 1e-3);
}
