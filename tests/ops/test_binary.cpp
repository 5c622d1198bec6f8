#include <gtest/gtest.h>

#include "brasa/brasa.h"

using namespace brasa;

TEST(Binary, AddBroadcastsAndPromotes) {
  Tensor c = ones({2, 3}, kInt) + full({3}, 2.5);
  EXPECT_EQ(c.dtype(), kFloat);
  EXPECT_EQ(c.sizes(), IntArrayRef({2, 3}));
  EXPECT_FLOAT_EQ(c.data_ptr<float>()[5], 3.5f);
}

TEST(Binary, ScalarsDoNotWidenWithinCategory) {
  EXPECT_EQ((ones({2}, kInt) * 3).dtype(), kInt);
  EXPECT_EQ((ones({2}, kHalf) * 3.0).dtype(), kHalf);
  EXPECT_EQ((ones({2}, kInt) * 3.0).dtype(), kFloat);
  EXPECT_EQ((ones({2}, kInt) / 2).dtype(), kFloat);
  EXPECT_EQ((ones({2}, kByte) + ones({}, kLong)).dtype(), kByte);
  EXPECT_EQ((ones({2}, kByte) + ones({}, kDouble)).dtype(), kDouble);
  EXPECT_EQ((ones({2}, kByte) + 2.5).dtype(), kFloat);
  EXPECT_EQ((ones({2}, kByte) + ones({2}, kChar)).dtype(), kShort);
}

TEST(Binary, ShapeMismatchNamesOpAndDims) {
  try {
    (void)(ones({2, 3}) + ones({4}));
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "add: shapes [2, 3] and [4] are not broadcastable (dim 1: 3 vs 4)");
  }
}

TEST(Binary, InPlaceRefusesUnsafeCast) {
  Tensor a = ones({2}, kInt);
  EXPECT_THROW(a.add_(ones({2})), TypeError);
  a.add_(ones({2}, kLong));
  EXPECT_EQ(a.data_ptr<int32_t>()[0], 2);
}

TEST(Binary, MetaComputesShapeOnly) {
  Tensor m = empty({2, 3}, Device(kMeta));
  Tensor r = m * empty({3}, TensorOptions(kMeta).dtype(kDouble));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.dtype(), kDouble);
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 3}));
}

TEST(Binary, IntegerDivisionByZeroThrows) {
  EXPECT_THROW(floor_divide(ones({2}, kInt), zeros({2}, kInt)), ValueError);
}

TEST(Binary, PowRefusesIntegersToNegativeScalarPowers) {
  // The pow kernel checks a wrapped-number exponent, so C++'s pow(t, -1) and t.pow_(-1) and
  // Python's t ** -1 (a wrapped 0-d tensor through the registry op) refuse alike.
  Tensor i = arange(1, 4, kLong);
  EXPECT_THROW(pow(i, -1), ValueError);
  EXPECT_THROW(i.pow_(-1), ValueError);
  EXPECT_THROW(pow(ones({2}, kBool), -2), ValueError);
  Tensor wrapped = scalar_tensor(-1, kLong);
  wrapped.unsafeGetTensorImpl()->set_wrapped_number(true);
  EXPECT_THROW(i.pow(wrapped), ValueError);
  // A tensor exponent, a floating base and a non-negative exponent are fine.
  EXPECT_TRUE(i.pow(scalar_tensor(-1, kLong)).equal(tensor({1, 0, 0}, kLong)));
  EXPECT_TRUE(pow(i, 2).equal(tensor({1, 4, 9}, kLong)));
  EXPECT_TRUE(pow(i.to(kDouble), -1).allclose(tensor({1.0, 0.5, 1.0 / 3}, kDouble)));
}

TEST(Binary, LargeResultsUseStreamingStoresCorrectly) {
  // Above the streaming threshold (8 MiB per call), with an output that starts off a cache line.
  const int64_t n = (3 << 20) + 5;
  Tensor a = arange(n, kFloat), b = full({n}, 0.5);
  Tensor fresh = a + b;
  Tensor base = empty({n + 1});
  Tensor out = base.narrow(0, 1, n);
  add_out(out, a, b);
  Tensor scaled = a * 2.0;  // scalar-broadcast loop
  for (int64_t i : {int64_t(0), int64_t(1), int64_t(17), n / 2, n - 2, n - 1}) {
    EXPECT_FLOAT_EQ(fresh.data_ptr<float>()[i], float(i) + 0.5f) << i;
    EXPECT_FLOAT_EQ(out.data_ptr<float>()[i], float(i) + 0.5f) << i;
    EXPECT_FLOAT_EQ(scaled.data_ptr<float>()[i], 2.0f * float(i)) << i;
  }
  EXPECT_TRUE(fresh.equal(out));
}
