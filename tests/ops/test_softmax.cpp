// softmax / log_softmax vs a double reference and torch 1.13 semantics.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/tensor_values.h"

using namespace brasa;
using namespace brasa::testing;

namespace {
const double kInf = std::numeric_limits<double>::infinity();

std::vector<double> ref_softmax(const std::vector<double>& x, int64_t outer, int64_t n,
                                int64_t inner, bool log) {
  std::vector<double> out(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      double m = -kInf, s = 0;
      for (int64_t i = 0; i < n; ++i) m = std::max(m, x[(o * n + i) * inner + j]);
      for (int64_t i = 0; i < n; ++i) s += std::exp(x[(o * n + i) * inner + j] - m);
      for (int64_t i = 0; i < n; ++i) {
        double v = x[(o * n + i) * inner + j];
        out[(o * n + i) * inner + j] = log ? v - m - std::log(s) : std::exp(v - m) / s;
      }
    }
  return out;
}
}  // namespace

TEST(Softmax, MatchesReferenceOnEveryDim) {
  std::vector<double> x = random_values(3 * 37 * 5, 11);
  for (double& v : x) v *= 30;
  Tensor t = make(x, {3, 37, 5});
  for (bool log : {false, true}) {
    for (int64_t d = 0; d < 3; ++d) {
      int64_t outer = d == 0 ? 1 : (d == 1 ? 3 : 3 * 37), n = t.size(d);
      int64_t inner = d == 0 ? 37 * 5 : (d == 1 ? 5 : 1);
      std::vector<double> want = ref_softmax(x, outer, n, inner, log);
      std::vector<double> got = values(log ? t.log_softmax(d) : t.softmax(d));
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 2e-6 * (1 + std::abs(want[i]))) << "dim " << d << " at " << i;
    }
  }
}

TEST(Softmax, LargeRowsAndStrided) {
  std::vector<double> x = random_values(64 * 1000, 5);
  Tensor t = make(x, {64, 1000});
  std::vector<double> want = ref_softmax(x, 64, 1000, 1, false);
  std::vector<double> got = values(t.softmax(-1));
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-8);
  // Softmax over dim 0 of the transpose equals softmax over dim 1 of the original.
  std::vector<double> tr = values(transposed(t, 0, 1).softmax(0));
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 1000; ++c) ASSERT_NEAR(tr[c * 64 + r], want[r * 1000 + c], 1e-8);
}

TEST(Softmax, DtypesAndEdgeCases) {
  Tensor i = make({1, 2, 3, 4}, {2, 2}, kInt);
  EXPECT_THROW(i.softmax(0), TypeError);
  Tensor d = i.softmax(0, kDouble);
  EXPECT_EQ(d.dtype(), kDouble);
  EXPECT_NEAR(values(d)[0], 0.11920292202211755, 1e-12);  // torch 1.13
  Tensor h = make({1, 2}, {2}, kHalf);
  EXPECT_EQ(h.softmax(0).dtype(), kHalf);
  Tensor lf = h.log_softmax(0, kFloat);
  EXPECT_EQ(lf.dtype(), kFloat);
  EXPECT_NEAR(values(lf)[0], -1.31326162815094, 1e-6);
  EXPECT_EQ(scalar(make({3}, {}).softmax(0)), 1);
  EXPECT_EQ(scalar(make({3}, {}).log_softmax(-1)), 0);
  EXPECT_THROW(make({3}, {}).softmax(1), IndexError);
  EXPECT_EQ(empty({0, 4}).softmax(1).sizes(), IntArrayRef({0, 4}));
  // Masked entries (-inf) give exact zeros; huge values don't overflow.
  std::vector<double> s = values(make({-kInf, 1e4, 1e4}, {3}).softmax(0));
  EXPECT_EQ(s[0], 0);
  EXPECT_NEAR(s[1], 0.5, 1e-7);
  EXPECT_TRUE(std::isnan(values(make({-kInf, -kInf}, {2}).softmax(0))[0]));
  std::vector<double> ls = values(make({-kInf, 0, 0}, {3}).log_softmax(0));
  EXPECT_EQ(ls[0], -kInf);
  EXPECT_NEAR(ls[1], -std::log(2.0), 1e-7);
  Tensor m = empty({2, 3}, Device(kMeta));
  EXPECT_TRUE(m.softmax(1).is_meta());
}
