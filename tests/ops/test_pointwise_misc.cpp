// clamp, lerp, where, masked_fill, nan_to_num: dtype rules and NaN semantics of PyTorch 1.13,
// broadcasting, in-place/out= forms, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/core/empty.h"

using namespace brasa;

namespace {
const double kNan = NAN, kInf = INFINITY;

Tensor from_vector(const std::vector<double>& v, ScalarType dt = kFloat) {
  Tensor t = empty({int64_t(v.size())}, TensorOptions(kDouble));
  std::copy(v.begin(), v.end(), t.data_ptr<double>());
  return t.to(dt);
}
std::vector<double> to_vector(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}
// Equality that treats NaN == NaN.
void expect_values(const Tensor& t, const std::vector<double>& want) {
  std::vector<double> got = to_vector(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << i;
    else
      EXPECT_EQ(got[i], want[i]) << i;
  }
}
}  // namespace

TEST(Clamp, ScalarBoundsPromoteLikePyTorch) {
  Tensor x = from_vector({1, 5, -3}, kLong);
  EXPECT_EQ(clamp(x, 0.5).dtype(), kFloat);
  expect_values(clamp(x, 0.5), {1, 5, 0.5});
  EXPECT_EQ(clamp(x, 0).dtype(), kLong);
  expect_values(clamp(x, 0, 2), {1, 2, 0});
  expect_values(clamp(from_vector({1, 0}, kBool), 0, 0), {0, 0});
  EXPECT_EQ(clamp(from_vector({1, 0}, kBool), 0, 0).dtype(), kLong);
  EXPECT_THROW(clamp(from_vector({1, 0}, kBool), false), TypeError);
  EXPECT_THROW(clamp(x.to(kChar), 1000), ValueError);
  EXPECT_THROW(clamp(x.to(kChar), -129), ValueError);
  expect_values(clamp(x.to(kByte), -1), {255, 255, 255});  // negative values wrap for uint8
  EXPECT_THROW(clamp(x.to(kByte), 300), ValueError);
  EXPECT_THROW(clamp(x, std::optional<Scalar>(), std::optional<Scalar>()), ValueError);
  EXPECT_EQ(clamp_min(x, 0.5).dtype(), kFloat);
  expect_values(clamp_max(x, 2), {1, 2, -3});
  expect_values(x.clip(0, 1), {1, 1, 0});
}

TEST(Clamp, NanAndCrossedBounds) {
  Tensor f = from_vector({1, kNan, -3, 7});
  expect_values(clamp(f, 5, 2), {2, kNan, 2, 2});  // min > max gives max
  expect_values(clamp(f, 0), {1, kNan, 0, 7});
  expect_values(clamp(f, kNan), {1, kNan, -3, 7});  // a lone NaN bound is ignored
  expect_values(clamp(f, std::nullopt, kNan), {1, kNan, -3, 7});
  expect_values(clamp(f, kNan, 5), {kNan, kNan, kNan, kNan});
  expect_values(clamp(f, -kInf, kNan), {kNan, kNan, kNan, kNan});
  expect_values(clamp_min(f, kNan), {kNan, kNan, kNan, kNan});
  expect_values(clamp_max(f, kNan), {kNan, kNan, kNan, kNan});
  Tensor x = from_vector({1, 5, -3}, kLong);
  EXPECT_EQ(clamp(x, 0, kNan).dtype(), kFloat);
  expect_values(clamp(x, 0, kNan), {kNan, kNan, kNan});
}

TEST(Clamp, TensorBounds) {
  Tensor x = from_vector({1, 5, -3}, kLong);
  expect_values(clamp(x, from_vector({0.5})), {1, 5, 0.5});
  EXPECT_EQ(clamp(x, from_vector({0.5})).dtype(), kFloat);
  expect_values(clamp(x, from_vector({0, 1, 2}, kLong), from_vector({1}, kLong)), {1, 1, 1});
  // a 0-d int64 bound doesn't widen int8 and wraps when converted
  Tensor big = scalar_tensor(1000, TensorOptions(kLong));
  EXPECT_EQ(clamp(x.to(kChar), big).dtype(), kChar);
  expect_values(clamp(x.to(kChar), big), {1, 5, -3});
  Tensor f = from_vector({1, kNan, -3, 7});
  expect_values(clamp(f, from_vector({kNan, 0, 0, 0})), {kNan, kNan, 0, 7});
  expect_values(clamp(f, from_vector({5, 5, 5, 5}), from_vector({2, 2, 2, 2})), {2, kNan, 2, 2});
  expect_values(clamp_max(f, from_vector({2})), {1, kNan, -3, 2});
  Tensor b = clamp(ones({3}), ones({2, 3}));
  EXPECT_EQ(b.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(clamp(from_vector({1, 0}, kBool), from_vector({0}, kBool)).dtype(), kBool);
  EXPECT_EQ(clamp(ones({2}), from_vector({1, 2}, kDouble)).dtype(), kDouble);
  EXPECT_THROW(clamp(x, std::optional<Tensor>(), std::optional<Tensor>()), ValueError);
}

TEST(Clamp, InPlaceAndOut) {
  Tensor x = from_vector({1, 5, -3}, kLong);
  EXPECT_THROW(x.clone().clamp_(0.5), TypeError);
  EXPECT_THROW(x.clone().clamp_min_(0.5), TypeError);
  Tensor y = x.clone();
  EXPECT_TRUE(y.clamp_(0, 2).is_same(y));
  expect_values(y, {1, 2, 0});
  Tensor out = empty({3}, TensorOptions(kLong));
  EXPECT_THROW(clamp_out(out, from_vector({1, 2, 3}), 3), TypeError);  // out must be Float
  clamp_out(out, x, -1, 1);
  expect_values(out, {1, 1, -1});
  Tensor f = from_vector({-2, 0, 2});
  f.clamp_(from_vector({-1, -1, -1}), from_vector({1}));
  expect_values(f, {-1, 0, 1});
  Tensor m = clamp(empty({2, 3}, TensorOptions(kMeta).dtype(kInt)), 0.5, 1);
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat);
  Tensor e = clamp(empty({0}), 0, 1);
  EXPECT_EQ(e.numel(), 0);
  // strided input
  Tensor base = from_vector({-5, 9, -5, 9, -5, 9, -5, 9});
  Tensor view = detail::make_view(base, {4}, {2}, 1);
  expect_values(clamp(view, 0, 3), {3, 3, 3, 3});
}

TEST(Lerp, ValuesAndDtypes) {
  Tensor a = from_vector({0, 1}), b = from_vector({10, 3});
  expect_values(lerp(a, b, 0.5), {5, 2});
  expect_values(lerp(a, b, 0), {0, 1});
  expect_values(lerp(a, b, 1), {10, 3});  // both ends exact
  Tensor big = lerp(from_vector({1e30, 1}), from_vector({-1e30, 3}), 0.75);
  EXPECT_NEAR(to_vector(big)[0], -5e29, 1e23);
  expect_values(lerp(from_vector({1, 1}), from_vector({1, 3}), kInf), {kNan, kInf});
  Tensor w =
      lerp(a, scalar_tensor(10.0, TensorOptions(kFloat)), from_vector({0.5, 0.25}).to(kFloat));
  expect_values(w, {5, 3.25});
  Tensor bf = lerp(from_vector({1}, kBFloat16), from_vector({3}, kBFloat16), 0.3);
  EXPECT_EQ(bf.dtype(), kBFloat16);
  expect_values(bf, {1.6015625});
  EXPECT_THROW(lerp(a, b.to(kDouble), 0.5), TypeError);
  EXPECT_THROW(lerp(a, b, from_vector({0.5}, kDouble)), TypeError);
  EXPECT_THROW(lerp(a.to(kLong), b.to(kLong), 0.5), TypeError);
  Tensor c = a.clone();
  EXPECT_THROW(c.lerp_(ones({2, 2}), 0.5), ValueError);  // in-place can't broadcast self
  c.lerp_(b, 0.5);
  expect_values(c, {5, 2});
  Tensor out = empty({0}, TensorOptions(kDouble));
  lerp_out(out, from_vector({1}), from_vector({3}), 0.3);
  EXPECT_EQ(out.dtype(), kDouble);
  EXPECT_EQ(to_vector(out)[0], double(1.0f + 0.3f * 2.0f));
}

TEST(Where, PromotionBroadcastAndScalars) {
  Tensor c = from_vector({1, 0, 1}, kBool);
  Tensor r = where(c, from_vector({1, 2, 3}, kLong), from_vector({0.5}));
  EXPECT_EQ(r.dtype(), kFloat);
  expect_values(r, {1, 0.5, 3});
  Tensor i8 = from_vector({1, 2, 3}, kChar);
  r = where(c, i8, scalar_tensor(1000, TensorOptions(kLong)));
  EXPECT_EQ(r.dtype(), kChar);
  expect_values(r, {1, -24, 3});
  EXPECT_THROW(where(c, i8, Scalar(1000)), ValueError);
  EXPECT_EQ(where(c, i8, Scalar(2.5)).dtype(), kFloat);
  EXPECT_EQ(where(c, Scalar(1), Scalar(2.5)).dtype(), kFloat);
  expect_values(where(c, Scalar(1), Scalar(2)), {1, 2, 1});
  EXPECT_EQ(where(c, Scalar(1), Scalar(2)).dtype(), kLong);
  expect_values(where(c.to(kByte), from_vector({1, 2, 3}), from_vector({0})), {1, 0, 3});
  EXPECT_THROW(where(c.to(kLong), i8, i8), TypeError);
  EXPECT_THROW(where(c.to(kFloat), i8, i8), TypeError);
  Tensor c2 = detail::make_view(c, {3, 1}, {1, 1}, 0);
  Tensor b = where(c2, from_vector({1, 2}), from_vector({0}));
  EXPECT_EQ(b.sizes(), IntArrayRef({3, 2}));
  expect_values(b, {1, 2, 0, 0, 1, 2});
  expect_values(from_vector({1, 2, 3}, kLong).where(c, from_vector({0.5})), {1, 0.5, 3});
  for (ScalarType dt : {kBool, kShort, kHalf, kDouble}) {
    Tensor o = where(c, ones({3}, TensorOptions(dt)), zeros({3}, TensorOptions(dt)));
    EXPECT_EQ(o.dtype(), dt);
    expect_values(o, {1, 0, 1});
  }
  // strided operands (every other element)
  Tensor av = detail::make_view(from_vector({1, -1, 2, -1, 3, -1}), {3}, {2}, 0);
  expect_values(where(c, av, Scalar(7.0)), {1, 7, 3});
  Tensor out = empty({0});
  where_out(out, c, av, from_vector({9, 9, 9}));
  expect_values(out, {1, 9, 3});
}

TEST(MaskedFill, ScalarAndTensorValues) {
  Tensor x = from_vector({1, 5, -3}, kLong);
  Tensor c = from_vector({1, 0, 1}, kBool);
  expect_values(x.masked_fill(c, 2.7), {2, 5, 2});
  expect_values(x.masked_fill(c, scalar_tensor(2.7)), {2, 5, 2});
  EXPECT_THROW(x.masked_fill(c, from_vector({2.7})), ValueError);
  expect_values(x.masked_fill(c.to(kByte), 2), {2, 5, 2});
  EXPECT_THROW(x.masked_fill(c.to(kFloat), 2), TypeError);
  Tensor b = x.masked_fill(detail::make_view(c, {3, 1}, {1, 1}, 0), 2);
  EXPECT_EQ(b.sizes(), IntArrayRef({3, 3}));
  expect_values(b, {2, 2, 2, 1, 5, -3, 2, 2, 2});
  EXPECT_THROW(x.clone().masked_fill_(detail::make_view(c, {3, 1}, {1, 1}, 0), 2), ValueError);
  EXPECT_THROW(x.to(kChar).masked_fill(c, 1000), ValueError);
  EXPECT_THROW(x.to(kChar).masked_fill(c, scalar_tensor(1000, TensorOptions(kLong))), ValueError);
  expect_values(from_vector({1, 0, 0}, kBool).masked_fill(c, 2.5), {1, 0, 1});
  expect_values(ones({3}).masked_fill(c, kNan), {kNan, 1, kNan});
  EXPECT_THROW(ones({3}, TensorOptions(kHalf)).masked_fill(c, 70000), ValueError);
  Tensor y = x.clone();
  EXPECT_TRUE(y.masked_fill_(c, -1).is_same(y));
  expect_values(y, {-1, 5, -1});
  expect_values(masked_fill(ones({3}, TensorOptions(kDouble)), c, 0.25), {0.25, 1, 0.25});
}

TEST(NanToNum, DefaultsPerDtypeAndOut) {
  std::vector<double> in = {kNan, kInf, -kInf, 1};
  expect_values(nan_to_num(from_vector(in)),
                {0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1});
  expect_values(nan_to_num(from_vector(in, kHalf)), {0, 65504, -65504, 1});
  expect_values(nan_to_num(from_vector(in, kBFloat16)),
                {0, 3.3895313892515355e+38, -3.3895313892515355e+38, 1});
  expect_values(nan_to_num(from_vector(in, kDouble)),
                {0, 1.7976931348623157e+308, -1.7976931348623157e+308, 1});
  expect_values(nan_to_num(from_vector(in), 2, 3, -4), {2, 3, -4, 1});
  expect_values(nan_to_num(from_vector(in), 2, 1e300, -1e300), {2, kInf, -kInf, 1});
  Tensor x = from_vector({1, 5, -3}, kLong);
  expect_values(nan_to_num(x, 2, 3, -4), {1, 5, -3});
  EXPECT_EQ(nan_to_num(from_vector({1, 0}, kBool)).dtype(), kBool);
  Tensor out = empty({3});
  EXPECT_THROW(nan_to_num_out(out, x), TypeError);
  Tensor f = from_vector(in);
  EXPECT_TRUE(f.nan_to_num_(5).is_same(f));
  expect_values(f, {5, 3.4028234663852886e+38, -3.4028234663852886e+38, 1});
  Tensor o = empty({0});
  nan_to_num_out(o, from_vector(in), 0.5);
  expect_values(o, {0.5, 3.4028234663852886e+38, -3.4028234663852886e+38, 1});
}
