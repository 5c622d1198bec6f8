#include <gtest/gtest.h>

#include "brasa/brasa.h"

using namespace brasa;

TEST(Accessor, ReadsAndWritesStridedElements) {
  Tensor t = zeros({3, 4});
  auto a = t.accessor<float, 2>();
  EXPECT_EQ(a.size(0), 3);
  EXPECT_EQ(a.size(1), 4);
  EXPECT_EQ(a.stride(0), 4);
  EXPECT_EQ(a.sizes(), IntArrayRef({3, 4}));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) a[i][j] = static_cast<float>(10 * i + j);
  EXPECT_EQ(t.data_ptr<float>()[6], 12.0f);
  Tensor tt = t.t();
  auto b = tt.accessor<float, 2>();
  EXPECT_EQ(b[3][2], 23.0f);
  EXPECT_EQ(b.stride(0), 1);
  auto row = b[1];
  EXPECT_EQ(row.size(0), 3);
  EXPECT_EQ(row[2], 21.0f);
}

TEST(Accessor, ThreeDimsAndConst) {
  Tensor t = ones({2, 3, 4}, kLong);
  t.select(2, 3).fill_(7);
  const auto a = t.accessor<int64_t, 3>();
  EXPECT_EQ(a[1][2][3], 7);
  EXPECT_EQ(a[1][2][2], 1);
  auto c = t.accessor<const int64_t, 3>();
  EXPECT_EQ(c[0][0][3], 7);
}

TEST(Accessor, ChecksDtypeDimAndData) {
  Tensor t = zeros({2, 2});
  EXPECT_THROW((t.accessor<double, 2>()), TypeError);
  EXPECT_THROW((t.accessor<float, 3>()), ValueError);
  Tensor m = empty({2, 2}, Device(kMeta));
  EXPECT_THROW((m.accessor<float, 2>()), NotImplementedError);
}
