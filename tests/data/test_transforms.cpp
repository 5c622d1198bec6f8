// Datasets, MapDataset and transforms: Lambda, TensorLambda, Normalize, Stack (and the block path).

#include <gtest/gtest.h>

#include "brasa/brasa.h"

namespace brasa::data {
namespace {

// Example i: data = full({2, 3, 3}, i), target = i.
struct Squares : datasets::Dataset<Squares> {
  Example<> get(size_t i) override {
    return {full({2, 3, 3}, static_cast<double>(i)), scalar_tensor(static_cast<int64_t>(i))};
  }
  std::optional<size_t> size() const override { return 10; }
};

TEST(DataTransforms, TensorDatasetRows) {
  datasets::TensorDataset ds(arange(12, kFloat32).reshape({4, 3}));
  EXPECT_EQ(ds.size(), 4u);
  EXPECT_TRUE(ds.get(2).data.equal(tensor({6.f, 7.f, 8.f})));
  EXPECT_THROW(ds.get(4), IndexError);
  auto stacked = ds.map(transforms::Stack<TensorExample>()).get_batch(std::vector<size_t>{3, 1});
  EXPECT_TRUE(stacked.data.equal(tensor({{9.f, 10.f, 11.f}, {3.f, 4.f, 5.f}})));
}

TEST(DataTransforms, NormalizeAndStack) {
  auto ds =
      Squares().map(transforms::Normalize<>({1.0, 2.0}, {2.0, 4.0})).map(transforms::Stack<>());
  EXPECT_EQ(ds.size(), 10u);
  Example<> batch = ds.get_batch(std::vector<size_t>{3, 5});
  ASSERT_EQ(batch.data.sizes(), (std::vector<int64_t>{2, 2, 3, 3}));
  EXPECT_FLOAT_EQ(batch.data[0][0][1][1].item<float>(), (3.0f - 1.0f) / 2.0f);
  EXPECT_FLOAT_EQ(batch.data[1][1][2][0].item<float>(), (5.0f - 2.0f) / 4.0f);
  EXPECT_TRUE(batch.target.equal(tensor({int64_t{3}, int64_t{5}})));
}

TEST(DataTransforms, LambdaAndTensorLambda) {
  auto ds = Squares()
                .map(transforms::TensorLambda<>([](Tensor t) { return t.mul(2); }))
                .map(transforms::Lambda<Example<>>([](Example<> e) {
                  e.target = e.target.add(100);
                  return e;
                }));
  auto batch = ds.get_batch(std::vector<size_t>{4});
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch[0].data.sum().item<float>(), 4.0f * 2 * 18);
  EXPECT_EQ(batch[0].target.item<int64_t>(), 104);
  auto collated = Squares().map(transforms::Collate<Example<>>([](std::vector<Example<>> v) {
    return Example<>(v[0].data, scalar_tensor(static_cast<int64_t>(v.size())));
  }));
  EXPECT_EQ(collated.get_batch(std::vector<size_t>{1, 2, 3}).target.item<int64_t>(), 3);
}

TEST(DataTransforms, StackShapeMismatchThrows) {
  std::vector<Example<>> v{{zeros({2}), zeros({})}, {zeros({3}), zeros({})}};
  EXPECT_THROW(transforms::Stack<>().apply_batch(v), Error);
}

// Rows of one block (a fresh index_select result) go through the fast path; the result must not
// alias the block, and must equal the per-example path.
TEST(DataTransforms, BlockFastPathMatchesAndCopies) {
  Tensor block = arange(2 * 3 * 2 * 2, kFloat32).reshape({3, 2, 2, 2}).select(1, 0).unsqueeze(1);
  block = block.contiguous();  // [3, 1, 2, 2]
  std::vector<Tensor> rows{block[0], block[1], block[2]};
  ASSERT_TRUE(transforms::detail::as_block(rows).defined());
  std::vector<Tensor> shuffled{block[1], block[0], block[2]};
  EXPECT_FALSE(transforms::detail::as_block(shuffled).defined());
  Tensor stacked = transforms::detail::stack_examples(rows);
  EXPECT_TRUE(stacked.equal(block));
  stacked.fill_(-1);
  EXPECT_NE(block.min().item<float>(), -1.0f);
  std::vector<Example<>> examples;
  for (int64_t i = 0; i < 3; ++i) {
    examples.emplace_back(block[i], scalar_tensor(i));
  }
  transforms::Normalize<> normalize(0.5, 2.0);
  auto fast = normalize.apply_batch(examples);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(fast[i].data.allclose(block[i].sub(0.5).div(2.0)));
  }
}

}  // namespace
}  // namespace brasa::data
