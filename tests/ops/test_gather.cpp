// gather / scatter / index_* / take / masked_select / nonzero: values against PyTorch 1.13,
// negative-index rules per op, non-contiguous inputs, empty tensors, and typed errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/ops/indexing_ops.h"

using namespace brasa;

namespace {
std::vector<double> values(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}
Tensor longs(std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v)); }
Tensor grid() { return arange(6, kFloat).view({2, 3}); }  // [[0,1,2],[3,4,5]]
using V = std::vector<double>;
}  // namespace

TEST(Gather, PicksAlongDim) {
  Tensor idx = longs({0, 0, 1, 2, 1, 0}).view({2, 3});
  Tensor out = gather(grid(), 1, idx);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(values(out), V({0, 0, 1, 5, 4, 3}));
  EXPECT_EQ(values(grid().gather(0, longs({1, 0}).view({1, 2}))), V({3, 1}));
  // index smaller than self in the other dims; non-contiguous self
  EXPECT_EQ(values(grid().t().gather(0, longs({2}).view({1, 1}))), V({2}));
  EXPECT_EQ(gather(grid(), 1, empty({2, 0}, kLong)).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(values(gather(tensor(3.0), 0, tensor(int64_t(0)))), V({3}));
}

TEST(Gather, Errors) {
  EXPECT_THROW(gather(grid(), 1, longs({-1}).view({1, 1})), IndexError);
  EXPECT_THROW(gather(grid(), 1, longs({3}).view({1, 1})), IndexError);
  EXPECT_THROW(gather(grid(), 1, longs({0})), IndexError);
  EXPECT_THROW(gather(grid(), 1, longs({0}).view({1, 1}).to(kInt)), TypeError);
  EXPECT_THROW(gather(grid(), 2, longs({0}).view({1, 1})), IndexError);
  EXPECT_THROW(gather(grid(), 1, zeros({3, 1}, kLong)), ValueError);
  try {
    gather(grid(), 1, longs({7}).view({1, 1}));
    FAIL();
  } catch (const IndexError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("gather"), std::string::npos) << m;
    EXPECT_NE(m.find("7"), std::string::npos) << m;
    EXPECT_NE(m.find("size 3"), std::string::npos) << m;
  }
}

TEST(Scatter, SrcValueAndAdd) {
  Tensor idx = longs({0, 1, 0}).view({1, 3});
  Tensor src = full({1, 3}, 9.0, kFloat);
  EXPECT_EQ(values(scatter(grid(), 0, idx, src)), V({9, 1, 9, 3, 9, 5}));
  EXPECT_EQ(values(scatter(grid(), 0, idx, 7)), V({7, 1, 7, 3, 7, 5}));
  Tensor add_idx = longs({0, 0, 2}).view({1, 3});
  EXPECT_EQ(values(scatter_add(grid(), 1, add_idx, ones({1, 3}))), V({2, 1, 3, 3, 4, 5}));
  // in place into a non-contiguous self writes through
  Tensor base = zeros({3, 2});
  base.t().scatter_(1, longs({2}).view({1, 1}), 5);
  EXPECT_EQ(values(base), V({0, 0, 0, 0, 5, 0}));
  Tensor self = grid();
  EXPECT_THROW(self.scatter_add_(1, longs({3}).view({1, 1}), ones({1, 1})), IndexError);
  EXPECT_EQ(values(self), values(grid()));  // nothing written on error
  EXPECT_THROW(scatter(grid(), 1, idx, ones({1, 3}, kDouble)), TypeError);
  EXPECT_THROW(scatter(grid(), 1, longs({-1}).view({1, 1}), 0), IndexError);
  EXPECT_THROW(scatter(grid(), 1, zeros({1, 3}, kLong), ones({1, 2})), ValueError);
}

TEST(IndexSelect, VectorIndexInt32AndInt64) {
  EXPECT_EQ(values(index_select(grid(), 1, longs({2, 0, 2}))), V({2, 0, 2, 5, 3, 5}));
  EXPECT_EQ(values(grid().index_select(0, longs({1}).to(kInt))), V({3, 4, 5}));
  EXPECT_EQ(values(grid().t().index_select(1, longs({1}))), V({3, 4, 5}));
  EXPECT_EQ(index_select(grid(), 0, empty({0}, kLong)).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(values(index_select(tensor(3.0), 0, longs({0}))), V({3}));
  EXPECT_THROW(index_select(grid(), 1, longs({-1})), IndexError);
  EXPECT_THROW(index_select(grid(), 1, longs({3})), IndexError);
  EXPECT_THROW(index_select(grid(), 1, longs({0}).view({1, 1})), IndexError);
  EXPECT_THROW(index_select(grid(), 1, tensor(std::vector<double>{0})), TypeError);
}

TEST(IndexAddCopyFill, Values) {
  Tensor src = ones({2, 2});
  EXPECT_EQ(values(index_add(grid(), 1, longs({0, 0}), src, 2)), V({4, 1, 2, 7, 4, 5}));
  EXPECT_EQ(values(index_copy(grid(), 1, longs({2, 0}), src * 7)), V({7, 1, 7, 7, 4, 7}));
  EXPECT_EQ(values(index_fill(grid(), 1, longs({-1}), 9)), V({0, 1, 9, 3, 4, 9}));
  Tensor t = zeros({3, 2}).t();
  t.index_fill_(1, longs({1}), 1);
  EXPECT_EQ(values(t), V({0, 1, 0, 0, 1, 0}));
  EXPECT_THROW(index_add(grid(), 1, longs({0, 3}), src), IndexError);
  EXPECT_THROW(index_add(grid(), 1, longs({0, -1}), src), IndexError);
  EXPECT_THROW(index_copy(grid(), 1, longs({-1}), ones({2, 1})), IndexError);
  EXPECT_THROW(index_fill(grid(), 1, longs({3}), 0), IndexError);
  EXPECT_THROW(index_add(grid(), 1, longs({0}), ones({3, 1})), ValueError);
  EXPECT_THROW(index_copy(grid(), 1, longs({0}), ones({2, 1}, kLong)), TypeError);
}

TEST(Take, FlatWithNegativeIndices) {
  EXPECT_EQ(values(take(grid(), longs({-1, 5, 0}))), V({5, 5, 0}));
  EXPECT_EQ(values(grid().t().take(longs({1, 2}).view({2, 1}))), V({3, 1}));
  EXPECT_EQ(take(grid(), longs({1, 2}).view({2, 1})).sizes(), IntArrayRef({2, 1}));
  EXPECT_THROW(take(grid(), longs({6})), IndexError);
  EXPECT_THROW(take(grid(), longs({-7})), IndexError);
  EXPECT_THROW(take(empty({0}), longs({0})), IndexError);
}

TEST(MaskedSelectNonzero, Values) {
  Tensor mask = tensor({true, false, true});
  EXPECT_EQ(values(masked_select(grid(), mask)), V({0, 2, 3, 5}));
  EXPECT_EQ(values(masked_select(grid().t(), mask.view({3, 1}))), V({0, 3, 2, 5}));
  EXPECT_THROW(masked_select(grid(), mask.to(kFloat)), TypeError);
  EXPECT_THROW(masked_select(grid(), tensor({true, false})), ValueError);
  Tensor nz = nonzero(tensor(std::vector<double>{0, 1.5, 0, -2}).view({2, 2}));
  EXPECT_EQ(nz.dtype(), kLong);
  EXPECT_EQ(nz.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values(nz), V({0, 1, 1, 1}));
  EXPECT_EQ(nonzero(tensor(3.0)).sizes(), IntArrayRef({1, 0}));
  EXPECT_EQ(nonzero(tensor(0.0)).sizes(), IntArrayRef({0, 0}));
  EXPECT_EQ(nonzero(zeros({2, 0, 3})).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(values(nonzero(grid().t())), V({0, 1, 1, 0, 1, 1, 2, 0, 2, 1}));
}

TEST(GatherFamily, MetaShapes) {
  Tensor m = empty({4, 5}, TensorOptions().device(kMeta));
  Tensor i = empty({2}, TensorOptions(kLong).device(kMeta));
  EXPECT_EQ(index_select(m, 1, i).sizes(), IntArrayRef({4, 2}));
  EXPECT_TRUE(index_select(m, 1, i).is_meta());
  EXPECT_EQ(gather(m, 0, empty({1, 5}, TensorOptions(kLong).device(kMeta))).sizes(),
            IntArrayRef({1, 5}));
}

TEST(ScatterReduce, AllReductionsWithAndWithoutSelf) {
  const double nan = NAN;
  Tensor x = tensor(std::vector<float>{1, 2, 3, 4});
  Tensor i = longs({0, 1, 0, 1, 2});
  Tensor s = tensor(std::vector<float>{5, 6, 7, nan, -1});
  auto check = [&](const char* r, bool inc, V want) {
    V got = values(scatter_reduce(x, 0, i, s, r, inc));
    ASSERT_EQ(got.size(), want.size());
    for (size_t k = 0; k < got.size(); ++k) {
      if (std::isnan(want[k])) {
        EXPECT_TRUE(std::isnan(got[k])) << r << " " << k;
      } else {
        EXPECT_NEAR(got[k], want[k], 1e-6) << r << " " << inc << " " << k;
      }
    }
  };
  check("sum", true, {13, nan, 2, 4});
  check("sum", false, {12, nan, -1, 4});
  check("prod", true, {35, nan, -3, 4});
  check("prod", false, {35, nan, -1, 4});
  check("mean", true, {13.0 / 3, nan, 1, 4});
  check("mean", false, {6, nan, -1, 4});
  check("amax", true, {7, nan, 3, 4});
  check("amax", false, {7, nan, -1, 4});
  check("amin", true, {1, nan, -1, 4});
  check("amin", false, {5, nan, -1, 4});
  Tensor xi = longs({1, 2, 3, 4}), si = longs({5, 6, 7, 8, -1});
  EXPECT_EQ(values(scatter_reduce(xi, 0, i, si, "mean")), V({4, 5, 1, 4}));
  EXPECT_EQ(values(scatter_reduce(xi, 0, i, si, "mean", false)), V({6, 7, -1, 4}));
  EXPECT_EQ(values(scatter_reduce(xi, 0, i, si, "amax", false)), V({7, 8, -1, 4}));
  EXPECT_THROW(scatter_reduce(x, 0, i, s, "max"), ValueError);
  EXPECT_THROW(scatter_reduce(x, 0, longs({4}), s, "sum"), IndexError);
}
