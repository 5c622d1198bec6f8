// sort / argsort / topk vs torch 1.13 semantics (NaN order, stability, k bounds, dims).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/tensor_values.h"

using namespace brasa;
using namespace brasa::testing;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}
}  // namespace

TEST(Sort, NaNAndDescending) {
  Tensor t = make({3, kNaN, 1, 2}, {4});
  auto [v, i] = t.sort();
  EXPECT_TRUE(same(values(v), {1, 2, 3, kNaN}));
  EXPECT_EQ(values(i), std::vector<double>({2, 3, 0, 1}));
  auto [vd, id] = t.sort(-1, true);
  EXPECT_TRUE(same(values(vd), {kNaN, 3, 2, 1}));
  EXPECT_EQ(values(id), std::vector<double>({1, 0, 3, 2}));
  EXPECT_EQ(i.dtype(), kLong);
}

TEST(Sort, StableTiesAndDims) {
  Tensor t = make({2, 1, 2, 1, 2}, {5}, kInt);
  auto [v, i] = t.sort(std::optional<bool>(true), 0, false);
  EXPECT_EQ(values(v), std::vector<double>({1, 1, 2, 2, 2}));
  EXPECT_EQ(values(i), std::vector<double>({1, 3, 0, 2, 4}));
  EXPECT_EQ(values(std::get<1>(t.sort(0, true))), std::vector<double>({0, 2, 4, 1, 3}));
  Tensor m = make({3, 1, 2, 9, 8, 7}, {2, 3});
  EXPECT_EQ(values(std::get<0>(m.sort(0))), std::vector<double>({3, 1, 2, 9, 8, 7}));
  EXPECT_EQ(values(std::get<1>(m.sort(0, true))), std::vector<double>({1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(values(m.argsort(1)), std::vector<double>({1, 2, 0, 2, 1, 0}));
  EXPECT_EQ(values(transposed(m, 0, 1).argsort(0)), std::vector<double>({1, 2, 2, 1, 0, 0}));
  Tensor b = make({1, 0}, {2}, kBool);
  EXPECT_EQ(values(std::get<1>(b.sort())), std::vector<double>({1, 0}));
  EXPECT_EQ(values(std::get<0>(make({3, 1}, {2}, kHalf).sort())), std::vector<double>({1, 3}));
  auto [zv, zi] = make({3}, {}).sort();
  EXPECT_EQ(zv.dim(), 0);
  EXPECT_EQ(zi.item<int64_t>(), 0);
  EXPECT_THROW(m.sort(2), IndexError);
  EXPECT_EQ(std::get<0>(empty({0, 3}).sort(0)).sizes(), IntArrayRef({0, 3}));
}

TEST(Sort, Topk) {
  Tensor t = make({3, kNaN, 1, 2}, {4});
  auto [v, i] = t.topk(2);
  EXPECT_TRUE(same(values(v), {kNaN, 3}));
  EXPECT_EQ(values(i), std::vector<double>({1, 0}));
  auto [vs, is] = t.topk(2, -1, false);
  EXPECT_EQ(values(vs), std::vector<double>({1, 2}));
  EXPECT_EQ(values(is), std::vector<double>({2, 3}));
  EXPECT_EQ(std::get<0>(t.topk(0)).sizes(), IntArrayRef({0}));
  EXPECT_THROW(t.topk(5), ValueError);
  EXPECT_THROW(t.topk(-1), ValueError);
  Tensor m = make({1, 5, 3, 4, 2, 6}, {2, 3});
  EXPECT_EQ(values(std::get<0>(m.topk(1, 0))), std::vector<double>({4, 5, 6}));
  EXPECT_EQ(values(std::get<1>(m.topk(2, 1))), std::vector<double>({1, 2, 2, 0}));
  EXPECT_EQ(std::get<0>(make({3}, {}).topk(1)).dim(), 0);
  Tensor meta = empty({4, 6}, Device(kMeta));
  EXPECT_EQ(std::get<1>(meta.topk(3)).sizes(), IntArrayRef({4, 3}));
}
