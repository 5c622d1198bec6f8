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
