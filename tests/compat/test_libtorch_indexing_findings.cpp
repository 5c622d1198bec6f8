// Indexing cases of libtorch's test/cpp/api/tensor_indexing.cpp that brasa refused: bool scalars
// (and 0-d bool tensors) together with tensor indices, and bool masks mixed with slices. Shapes
// are PyTorch 1.13's for the same index lists.

#include <gtest/gtest.h>
#include <torch/torch.h>

namespace {

using torch::indexing::Slice;

TEST(LibtorchIndexing, MultipleBoolMasksAroundASlice) {
  auto v = torch::arange(105.).view({5, 7, 3});
  auto mask1 = torch::tensor({1, 0, 1, 1, 0}, torch::kBool);
  auto mask2 = torch::tensor({1, 1, 1}, torch::kBool);
  auto r = v.index({mask1, Slice(), mask2});
  ASSERT_EQ(r.sizes(), torch::IntArrayRef({3, 7}));
  // The masks' nonzero positions pair up: (0, 0), (2, 1), (3, 2).
  auto expected =
      torch::stack({v.index({0, Slice(), 0}), v.index({2, Slice(), 1}), v.index({3, Slice(), 2})});
  EXPECT_TRUE(torch::equal(r, expected));
  EXPECT_EQ(v.index({mask1, torch::indexing::None, Slice(1, 3), mask2}).sizes(),
            torch::IntArrayRef({3, 1, 2}));
}

TEST(LibtorchIndexing, BoolScalarsWithTensorIndices) {
  auto v = torch::arange(105.).view({5, 7, 3});
  auto mask1 = torch::tensor({1, 0, 1, 1, 0}, torch::kBool);
  EXPECT_EQ(v.index({mask1, true}).sizes(), torch::IntArrayRef({3, 7, 3}));
  EXPECT_EQ(v.index({mask1, Slice(1, 3), true}).sizes(), torch::IntArrayRef({3, 2, 3}));
  auto front = v.index({true, mask1});
  ASSERT_EQ(front.sizes(), torch::IntArrayRef({3, 7, 3}));
  EXPECT_TRUE(torch::equal(front, v.index({mask1})));

  // libtorch's NumpyTests.TestBooleanIndexingWeirdness, with bools and with 0-d bool tensors.
  auto a = torch::ones({2, 3, 4});
  for (bool as_tensors : {false, true}) {
    SCOPED_TRACE(as_tensors);
    torch::indexing::TensorIndex t = as_tensors ? torch::indexing::TensorIndex(torch::tensor(true))
                                                : torch::indexing::TensorIndex(true);
    torch::indexing::TensorIndex f = as_tensors ? torch::indexing::TensorIndex(torch::tensor(false))
                                                : torch::indexing::TensorIndex(false);
    EXPECT_EQ(a.index({f, t, "..."}).sizes(), torch::IntArrayRef({0, 2, 3, 4}));
    EXPECT_TRUE(torch::equal(
        torch::ones({1, 2}),
        a.index({t, torch::tensor({0, 1}), t, t, torch::tensor({1}), torch::tensor({{2}})})));
    EXPECT_THROW(a.index({f, torch::tensor({0, 1}), "..."}), c10::Error);
  }
  // index_put_ through the same lists.
  auto b = torch::zeros({2, 3});
  b.index_put_({true, torch::tensor({1}), Slice()}, 5.0);
  EXPECT_TRUE(torch::equal(b.sum(1), torch::tensor({0.0f, 15.0f})));
  b.index_put_({false, torch::tensor({0})}, 7.0);
  EXPECT_EQ(b.sum().item<float>(), 15.0f);
}

TEST(LibtorchIndexing, BoolIndicesMatchByteIndices) {
  // libtorch's TestBoolIndices, TestBoolIndicesAccumulate and TestIndexScalarWithBoolMask.
  auto v = torch::randn({5, 7, 3});
  auto bool_indices = torch::tensor({true, false, true, true, false}, torch::kBool);
  auto uint8_indices = torch::tensor({1, 0, 1, 1, 0}, torch::kUInt8);
  EXPECT_EQ(v.index({bool_indices}).sizes(), torch::IntArrayRef({3, 7, 3}));
  EXPECT_TRUE(torch::equal(v.index({bool_indices}), v.index({uint8_indices})));
  auto mask = torch::zeros({10}, torch::kBool);
  auto y = torch::ones({10, 10});
  y.index_put_({mask}, y.index({mask}));
  EXPECT_TRUE(torch::equal(y, torch::ones({10, 10})));
  auto s = torch::tensor(1);
  auto uint_mask = torch::tensor(true, torch::kUInt8);
  auto bool_mask = torch::tensor(true, torch::kBool);
  EXPECT_TRUE(torch::equal(s.index({uint_mask}), s.index({bool_mask})));
  EXPECT_EQ(s.index({bool_mask}).sizes(), torch::IntArrayRef({1}));
  EXPECT_EQ(s.index({uint_mask}).dtype(), s.index({bool_mask}).dtype());
}

}  // namespace
