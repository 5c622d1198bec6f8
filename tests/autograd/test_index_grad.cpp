// Derivatives of the indexing, gather/scatter, shape and ternary pointwise ops, checked with
// finite differences (float64), plus second derivatives and the in-place forms on views.

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "brasa/autograd/gradcheck.h"
#include "brasa/brasa.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {
namespace {

using autograd::gradcheck;
using autograd::gradgradcheck;
using autograd::variable_list;
using indexing::Slice;

Tensor input(IntArrayRef sizes) {
  return randn(sizes, TensorOptions(kDouble)).requires_grad_(true);
}
Tensor longs(std::vector<int64_t> v) { return tensor(v, TensorOptions(kLong)); }

class IndexGrad : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(7); }
};

TEST_F(IndexGrad, GatherScatterFamily) {
  Tensor x = input({3, 4}), src = input({2, 3});
  Tensor idx = longs({0, 2, 1, 1, 0, 2}).view({2, 3});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list { return {v[0].gather(1, idx)}; }, {x}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {v[0].scatter(0, longs({0, 2, 1}).view({1, 3}), v[1].slice(0, 0, 1))};
      },
      {x, src}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {v[0].scatter_add(1, idx, v[1]), v[0].scatter(1, idx, Scalar(2.0))};
      },
      {x, src}));
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    for (bool include_self : {true, false}) {
      EXPECT_TRUE(gradcheck(
          [&](const variable_list& v) -> variable_list {
            return {scatter_reduce(v[0], 1, idx, v[1], reduce, include_self)};
          },
          {x, src}))
          << reduce << " include_self=" << include_self;
    }
  }
}

TEST_F(IndexGrad, IndexOps) {
  Tensor x = input({3, 4}), s = input({3, 2}), rows = input({3, 4});
  Tensor idx = longs({3, 0});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {v[0].index_select(1, longs({1, 1, 3})), v[0].index_add(1, idx, v[1], 0.5),
                v[0].index_copy(1, idx, v[1]), v[0].index_fill(0, longs({2}), Scalar(1.0)),
                v[0].take(longs({-1, 5, 5}))};
      },
      {x, s}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        Tensor mask = longs({1, 0, 1, 1}).ne(0);
        return {masked_select(v[0], mask), masked_scatter(v[0], mask, v[1])};
      },
      {x, rows}));
}

TEST_F(IndexGrad, AdvancedIndexAndIndexPut) {
  Tensor x = input({3, 4}), val = input({3});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {v[0].t().index({longs({0, 3, 0}), Slice()}), v[0].index({true})};
      },
      {x}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        Tensor y = v[0] * 1;  // a non-leaf target
        index_put_(y, {std::nullopt, longs({1, 1, 2})}, v[1], true);
        Tensor z = v[0].clone();
        index_put_(z, {longs({0, 2, 1}), longs({3, 3, 0})}, v[1], false);
        return {y, z};
      },
      {x, val}));
}

TEST_F(IndexGrad, InPlaceOnViews) {
  Tensor x = input({3, 4});
  Tensor mask = longs({1, 0, 0, 1}).ne(0);
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        Tensor y = v[0] * 2.0;
        y.select(0, 1).masked_fill_(mask, Scalar(0.5));
        y.slice(1, 1, 3).clamp_(-0.5, 1.5);
        y.narrow(0, 2, 1).index_add_(1, longs({0, 0}), v[0].slice(0, 0, 1).slice(1, 0, 2));
        return {y};
      },
      {x}));
  // The mask's writes leave no gradient at the filled positions.
  Tensor y = x * 2.0;
  y.select(0, 1).masked_fill_(mask, Scalar(0.0));
  y.sum().backward();
  EXPECT_EQ(x.grad()[1][0].item<double>(), 0.0);
  EXPECT_EQ(x.grad()[1][1].item<double>(), 2.0);
}

TEST_F(IndexGrad, Embedding) {
  Tensor w = input({5, 3});
  Tensor ids = longs({1, 4, 1, 0}).view({2, 2});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list { return {embedding(v[0], ids)}; }, {w}));
  embedding(w, ids, 1).sum().backward();
  Tensor scaled = w.detach().requires_grad_(true);
  embedding(scaled, ids, -1, true).sum().backward();  // row 1 is looked up twice: 2 / 2
  for (int64_t j = 0; j < 3; ++j) {
    EXPECT_EQ(w.grad()[1][j].item<double>(), 0.0);
    EXPECT_EQ(w.grad()[4][j].item<double>(), 1.0);
    EXPECT_EQ(scaled.grad()[1][j].item<double>(), 1.0);
    EXPECT_EQ(scaled.grad()[2][j].item<double>(), 0.0);
  }
  Tensor psw = input({4});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        Tensor flat = ids.reshape({-1});
        Tensor offsets = longs({0, 1});
        return {embedding_bag(v[0], flat, offsets, "sum", v[1]),
                embedding_bag(v[0], flat, offsets, "mean"),
                embedding_bag(v[0], flat, offsets, "max")};
      },
      {w, psw}));
}

TEST_F(IndexGrad, ShapeOps) {
  Tensor a = input({2, 3}), b = input({1, 3}), c = input({3});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {cat({v[0], v[1]}, 0),
                stack({v[0].select(0, 0), v[2]}, 1),
                v[0].flip({0, 1}),
                v[0].roll({1, -1}, {0, 1}),
                v[0].tril(),
                v[0].triu(1),
                v[0].repeat({2, 1, 3}),
                v[0].tile({2}),
                repeat_interleave(v[2], longs({2, 0, 1}))};
      },
      {a, b, c}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        std::vector<Tensor> g = meshgrid({v[0], v[1]}, "xy");
        return {g[0], g[1]};
      },
      {c, input({2})}));
}

TEST_F(IndexGrad, TernaryPointwise) {
  Tensor x = input({3, 4}), y = input({4}), w = input({3, 1});
  Tensor lo = input({4}).sub(0.5).detach().requires_grad_(true);
  Tensor hi = input({3, 1}).add(0.5).detach().requires_grad_(true);
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {where(v[0].gt(0), v[0], v[1]), v[0].masked_fill(v[1].gt(0), Scalar(3.0)),
                v[0].clamp(-0.5, 0.5),         v[0].clamp_min(0.1),
                v[0].clamp_max(0.1),           v[0].lerp(v[1], 0.3),
                v[0].lerp(v[1], v[2]),         nan_to_num(v[0])};
      },
      {x, y, w}));
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {clamp(v[0], v[1], v[2]), clamp(v[0], v[1], std::nullopt)};
      },
      {x, lo, hi}));
  // A 0-d tensor fill value gets the filled positions' gradient.
  Tensor value = input({});
  EXPECT_TRUE(gradcheck(
      [&](const variable_list& v) -> variable_list {
        return {v[0].masked_fill(v[0].gt(0).detach(), v[1])};
      },
      {x, value}));
}

TEST_F(IndexGrad, SecondDerivatives) {
  Tensor x = input({3, 4}), src = input({2, 3}), y = input({4}), w = input({3, 1});
  Tensor idx = longs({0, 2, 1, 1, 0, 2}).view({2, 3});
  EXPECT_TRUE(gradgradcheck(
      [&](const variable_list& v) -> variable_list {
        return {(v[0].gather(1, idx) * v[1]).scatter_add(1, idx, v[1] * v[1])};
      },
      {x, src}));
  EXPECT_TRUE(gradgradcheck(
      [&](const variable_list& v) -> variable_list {
        Tensor t = v[0] * v[0];
        index_put_(t, {longs({0, 2})}, v[1].unsqueeze(0) * v[1], true);
        return {t.lerp(v[1], v[2]).index({longs({1, 0}), Slice()})};
      },
      {x, y, w}));
}

TEST_F(IndexGrad, NonDifferentiableOutputs) {
  Tensor x = input({5});
  EXPECT_FALSE(nonzero(x).requires_grad());
  EXPECT_FALSE(searchsorted(std::get<0>(x.sort()), x).requires_grad());
  EXPECT_FALSE(std::get<0>(unique(x)).requires_grad());
  EXPECT_THROW(x.masked_fill_(x.gt(0), Scalar(0)), ValueError);  // a leaf that requires grad
}

}  // namespace
}  // namespace brasa
