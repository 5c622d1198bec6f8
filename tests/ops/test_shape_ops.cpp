// cat / stack / hstack / vstack / meshgrid / flip / roll / tril / triu / repeat / tile: values
// against PyTorch 1.13, dtype promotion, empty and non-contiguous inputs, typed errors.
#include <gtest/gtest.h>

#include <vector>

#include "brasa/brasa.h"
#include "brasa/ops/indexing_ops.h"

using namespace brasa;

namespace {
std::vector<double> values(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}
Tensor grid() { return arange(6, kFloat).view({2, 3}); }  // [[0,1,2],[3,4,5]]
using V = std::vector<double>;
}  // namespace

TEST(Cat, PromotesSkipsLegacyEmptyAndChecks) {
  Tensor out = cat({grid(), zeros({2, 2}, kInt)}, 1);
  EXPECT_EQ(out.dtype(), kFloat);
  EXPECT_EQ(values(out), V({0, 1, 2, 0, 0, 3, 4, 5, 0, 0}));
  EXPECT_EQ(values(cat({grid().t(), grid().t()}, -1)), V({0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5}));
  EXPECT_EQ(cat({grid(), zeros({0})}, 0).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(cat({zeros({0}), zeros({0}, kLong)}).sizes(), IntArrayRef({0}));
  EXPECT_EQ(cat({zeros({0, 3}), grid()}).sizes(), IntArrayRef({2, 3}));
  EXPECT_THROW(cat({grid(), zeros({3, 3})}, 1), ValueError);
  EXPECT_THROW(cat(std::vector<Tensor>{}, 0), ValueError);
  EXPECT_THROW(cat({tensor(1.0)}, 0), ValueError);
  EXPECT_THROW(cat({grid()}, 2), IndexError);
  EXPECT_THROW(cat({grid(), zeros({6})}, 0), ValueError);
}

TEST(Stack, NewDim) {
  Tensor s = stack({grid(), grid() + 1}, 1);
  EXPECT_EQ(s.sizes(), IntArrayRef({2, 2, 3}));
  EXPECT_EQ(values(s.select(1, 1)), values(grid() + 1));
  EXPECT_EQ(stack({grid(), grid()}, -1).sizes(), IntArrayRef({2, 3, 2}));
  EXPECT_EQ(stack({grid(), grid().to(kInt)}).dtype(), kFloat);
  EXPECT_THROW(stack({grid(), grid().slice(0, 0, 1)}), ValueError);
  EXPECT_THROW(stack({grid()}, 3), IndexError);
  EXPECT_EQ(values(stack({tensor(1.0), tensor(2.0)})), V({1, 2}));
}

TEST(HVStack, Shapes) {
  Tensor a = arange(3, kFloat);
  EXPECT_EQ(values(hstack({a, a})), V({0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(hstack({grid(), grid()}).sizes(), IntArrayRef({2, 6}));
  EXPECT_EQ(vstack({a, a}).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(vstack({tensor(1.0), tensor(2.0)}).sizes(), IntArrayRef({2, 1}));
  EXPECT_EQ(hstack({tensor(1.0), tensor(2.0)}).sizes(), IntArrayRef({2}));
}

TEST(Meshgrid, IjAndXy) {
  Tensor x = arange(2, kFloat), y = arange(3, kFloat);
  std::vector<Tensor> ij = meshgrid({x, y}, "ij");
  EXPECT_EQ(ij[0].sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(values(ij[0]), V({0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(values(ij[1]), V({0, 1, 2, 0, 1, 2}));
  std::vector<Tensor> xy = meshgrid({x, y}, "xy");
  EXPECT_EQ(xy[0].sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values(xy[0]), V({0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(values(xy[1]), V({0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(meshgrid({x, y, tensor(1.0)}, "xy")[2].sizes(), IntArrayRef({3, 2, 1}));
  EXPECT_THROW(meshgrid({x, y.to(kInt)}), TypeError);
  EXPECT_THROW(meshgrid({grid()}), ValueError);
  EXPECT_THROW(meshgrid({x}, "yx"), ValueError);
}

TEST(Flip, DimsAndErrors) {
  EXPECT_EQ(values(flip(grid(), {1})), V({2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(values(grid().flip({0, -1})), V({5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values(grid().t().flip({0})), V({2, 5, 1, 4, 0, 3}));
  Tensor g = grid();
  Tensor same = g.flip({});
  EXPECT_FALSE(same.is_same(g));
  EXPECT_EQ(values(flip(tensor(3.0), {0})), V({3}));
  EXPECT_THROW(grid().flip({0, 0}), ValueError);
  EXPECT_THROW(grid().flip({2}), IndexError);
}

TEST(Roll, FlatAndPerDim) {
  EXPECT_EQ(values(grid().roll({1})), V({5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(values(grid().roll({1, 1}, {0, 1})), V({5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(values(grid().roll({-4}, {1})), V({1, 2, 0, 4, 5, 3}));
  EXPECT_EQ(values(grid().t().roll({1}, {0})), V({2, 5, 0, 3, 1, 4}));
  EXPECT_EQ(roll(zeros({0, 3}), {2}, {0}).sizes(), IntArrayRef({0, 3}));
  EXPECT_THROW(grid().roll({1}, {0, 1}), ValueError);
  EXPECT_THROW(grid().roll({1}, {2}), IndexError);
}

TEST(TrilTriu, Diagonals) {
  Tensor a = arange(1, 10, kFloat).view({3, 3});
  EXPECT_EQ(values(a.tril()), V({1, 0, 0, 4, 5, 0, 7, 8, 9}));
  EXPECT_EQ(values(a.triu(1)), V({0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(values(a.tril(-1)), V({0, 0, 0, 4, 0, 0, 7, 8, 0}));
  EXPECT_EQ(values(grid().triu(-1)), V({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(values(a.t().tril()), V({1, 0, 0, 2, 5, 0, 3, 6, 9}));
  EXPECT_EQ(tril(ones({2, 2, 2}, kBool)).dtype(), kBool);
  EXPECT_EQ(values(tril(ones({2, 2, 2}, kLong))), V({1, 0, 1, 1, 1, 0, 1, 1}));
  Tensor b = a.clone();
  b.triu_();
  EXPECT_EQ(values(b), V({1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_THROW(tril(arange(3)), ValueError);
}

TEST(RepeatTile, Shapes) {
  EXPECT_EQ(values(grid().repeat({1, 2})), V({0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(grid().repeat({2, 1, 1}).sizes(), IntArrayRef({2, 2, 3}));
  EXPECT_EQ(values(arange(2).t().repeat({3})), V({0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(grid().repeat({0, 1}).sizes(), IntArrayRef({0, 3}));
  Tensor g = grid();
  Tensor r = g.repeat({1, 1});
  r.fill_(0);
  EXPECT_EQ(values(g), values(grid()));  // a copy, not a view
  EXPECT_THROW(grid().repeat({2}), ValueError);
  EXPECT_THROW(grid().repeat({-1, 1}), ValueError);
  EXPECT_EQ(values(grid().tile({2})), V({0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(tensor(1.0).tile({2, 2}).sizes(), IntArrayRef({2, 2}));
}
