// View ops: geometry (sizes, strides, storage offset) checked against PyTorch 1.13, storage
// sharing, meta tensors and errors.
#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "support/geometry.h"

using namespace brasa;

namespace {

// brasa::arange over float, the values the geometry checks read back.
Tensor arange_f(int64_t n) { return arange(n, kFloat); }

void expect_view_of(const Tensor& v, const Tensor& base) {
  EXPECT_TRUE(v.is_view());
  EXPECT_TRUE(v.storage().get() == base.storage().get());
}

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

TEST(View, WritesThroughViewAreVisibleInBase) {
  Tensor base = arange_f(6).view({2, 3});
  Tensor v = base.t();
  expect_view_of(v, base);
  EXPECT_TRUE(v._base().is_same(base._base()));  // views of views record the root
  v.select(0, 2).fill_(-1);                      // column 2 of base
  EXPECT_EQ(values(base), (std::vector<float>{0, 1, -1, 3, 4, -1}));
  base.narrow(0, 1, 1).squeeze(0).unsqueeze(1).copy_(full({3, 1}, 9.0));
  EXPECT_EQ(values(v), (std::vector<float>{0, 9, 1, 9, -1, 9}));
}

TEST(View, ViewInfersAndMatchesPyTorchStrides) {
  Tensor x = empty({2, 3, 4});
  expect_geometry(x.view({3, -1}), {3, 8}, {8, 1}, 0);
  Tensor a = x.transpose(0, 1);
  expect_geometry(a.view({3, 2, 2, 2}), {3, 2, 2, 2}, {4, 12, 2, 1}, 0);
  expect_geometry(a.view({3, 2, 4}), {3, 2, 4}, {4, 12, 1}, 0);
  Tensor b = empty({4, 6}).slice(1, std::nullopt, std::nullopt, 2);
  expect_geometry(b.view({2, 2, 3}), {2, 2, 3}, {12, 6, 2}, 0);
  expect_geometry(b.unsqueeze(1).view({4, 3}), {4, 3}, {6, 2}, 0);
  expect_geometry(empty({2, 1, 3}).expand({2, 5, 3}).view({2, 5, 3, 1}), {2, 5, 3, 1}, {3, 0, 1, 1},
                  0);
  expect_geometry(empty({0, 3}).view({-1, 3}), {0, 3}, {3, 1}, 0);
  expect_geometry(scalar_tensor(1.0).view({1, 1}), {1, 1}, {1, 1}, 0);
}

TEST(View, ViewErrors) {
  Tensor x = empty({2, 3});
  try {
    (void)x.t().view({6});
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "view: size is not compatible with input tensor's size and stride (at least one "
                  "dimension spans across two contiguous subspaces). Use .reshape(...) instead."),
              std::string::npos);
  }
  EXPECT_THROW(x.view({4}), ValueError);
  EXPECT_THROW(x.view({-1, -1}), ValueError);
  EXPECT_THROW(x.view({-2, 3}), ValueError);
  EXPECT_THROW(empty({0, 3}).view({-1, 0}), ValueError);
}

TEST(View, ReshapeViewsWhenPossibleElseCopies) {
  Tensor x = arange_f(6).view({2, 3});
  Tensor r = x.t().reshape({3, 2});
  expect_geometry(r, {3, 2}, {1, 3}, 0);
  expect_view_of(r, x);
  Tensor c = x.t().reshape({-1});
  expect_geometry(c, {6}, {1}, 0);
  EXPECT_FALSE(c.is_view());
  EXPECT_EQ(values(c), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(brasa::reshape(x, {3, 2}).sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(x.reshape_as(empty({6})).sizes(), IntArrayRef({6}));
}

TEST(View, FlattenUnflatten) {
  Tensor x = empty({2, 3, 4});
  expect_geometry(x.flatten(), {24}, {1}, 0);
  expect_geometry(x.flatten(1), {2, 12}, {12, 1}, 0);
  expect_geometry(brasa::flatten(x, 0, 1), {6, 4}, {4, 1}, 0);
  expect_geometry(scalar_tensor(1.0).flatten(), {1}, {1}, 0);
  EXPECT_THROW(x.flatten(2, 1), ValueError);
  EXPECT_THROW(x.flatten(0, 3), IndexError);
  expect_geometry(x.unflatten(-1, {2, 2}), {2, 3, 2, 2}, {12, 4, 2, 1}, 0);
  expect_geometry(empty({2, 12}).unflatten(1, {3, -1}), {2, 3, 4}, {12, 4, 1}, 0);
  EXPECT_THROW(empty({2, 12}).unflatten(1, {5, -1}), ValueError);
  EXPECT_THROW(empty({2, 12}).unflatten(1, {5, 2}), ValueError);
}

TEST(View, SqueezeUnsqueeze) {
  Tensor x = empty({1, 2, 1});
  expect_geometry(x.squeeze(), {2}, {1}, 0);
  expect_geometry(x.squeeze(1), {1, 2, 1}, {2, 1, 1}, 0);
  expect_geometry(x.squeeze(-1), {1, 2}, {2, 1}, 0);
  expect_geometry(x.squeeze(IntArrayRef{0, 2}), {2}, {1}, 0);
  expect_geometry(brasa::squeeze(x, IntArrayRef{0}), {2, 1}, {1, 1}, 0);
  EXPECT_THROW(x.squeeze(3), IndexError);
  EXPECT_THROW(x.squeeze(IntArrayRef{0, 0}), ValueError);
  expect_geometry(scalar_tensor(1.0).squeeze(0), {}, {}, 0);
  Tensor y = empty({2, 3});
  expect_geometry(y.unsqueeze(2), {2, 3, 1}, {3, 1, 1}, 0);
  expect_geometry(y.unsqueeze(-1), {2, 3, 1}, {3, 1, 1}, 0);
  expect_geometry(y.unsqueeze(0), {1, 2, 3}, {6, 3, 1}, 0);
  expect_geometry(scalar_tensor(1.0).unsqueeze(0), {1}, {1}, 0);
  EXPECT_THROW(y.unsqueeze(3), IndexError);
  EXPECT_THROW(y.unsqueeze(-4), IndexError);
}

TEST(View, TransposePermuteMovedim) {
  Tensor x = empty({2, 3, 4});
  expect_geometry(x.transpose(0, 2), {4, 3, 2}, {1, 4, 12}, 0);
  expect_geometry(brasa::swapaxes(x, -1, 0), {4, 3, 2}, {1, 4, 12}, 0);
  EXPECT_THROW(empty({2, 3}).transpose(0, 2), IndexError);
  expect_geometry(empty({2, 3}).t(), {3, 2}, {1, 3}, 0);
  expect_geometry(empty({6}).t(), {6}, {1}, 0);
  expect_geometry(brasa::t(scalar_tensor(1.0)), {}, {}, 0);
  EXPECT_THROW(x.t(), ValueError);
  expect_geometry(x.permute({2, 0, 1}), {4, 2, 3}, {1, 12, 4}, 0);
  expect_geometry(x.permute({-1, 0, 1}), {4, 2, 3}, {1, 12, 4}, 0);
  EXPECT_THROW(x.permute({2, 0}), ValueError);
  EXPECT_THROW(x.permute({2, 0, 0}), ValueError);
  EXPECT_THROW(x.permute({3, 0, 1}), IndexError);
  expect_geometry(x.movedim(0, 2), {3, 4, 2}, {4, 1, 12}, 0);
  expect_geometry(empty({2, 3}).movedim(-1, 0), {3, 2}, {1, 3}, 0);
  expect_geometry(empty({2, 3, 4, 5}).movedim({0, 1}, {3, 0}), {3, 4, 5, 2}, {20, 5, 1, 60}, 0);
  EXPECT_THROW(empty({2, 3, 4, 5}).movedim({0, 0}, {3, 1}), ValueError);
  EXPECT_THROW(empty({2, 3, 4, 5}).movedim({0, 1}, {3}), ValueError);
  EXPECT_THROW(x.movedim(3, 0), IndexError);
}

TEST(View, Expand) {
  Tensor x = empty({3, 1});
  expect_geometry(x.expand({2, -1, 4}), {2, 3, 4}, {0, 1, 0}, 0);
  expect_geometry(x.expand({3, 0}), {3, 0}, {1, 0}, 0);
  expect_geometry(x.expand_as(empty({5, 3, 2})), {5, 3, 2}, {0, 1, 0}, 0);
  expect_geometry(scalar_tensor(1.0).expand({2, 2}), {2, 2}, {0, 0}, 0);
  expect_geometry(brasa::broadcast_to(x, {3, 3}), {3, 3}, {1, 0}, 0);
  EXPECT_THROW(x.expand({2, 4, 4}), ValueError);
  EXPECT_THROW(x.expand({4}), ValueError);
  EXPECT_THROW(x.expand({-1, 3, 1}), ValueError);
  Tensor base = arange_f(3).view({3, 1});
  Tensor e = base.expand({3, 4});
  EXPECT_EQ(values(e)[7], 1.0f);
}

TEST(View, NarrowSelectSlice) {
  Tensor x = arange_f(6).view({2, 3});
  expect_geometry(x.narrow(1, 1, 2), {2, 2}, {3, 1}, 1);
  expect_geometry(x.narrow(1, -2, 2), {2, 2}, {3, 1}, 1);
  EXPECT_THROW(x.narrow(1, 2, 2), ValueError);
  EXPECT_THROW(x.narrow(1, 4, 0), IndexError);
  EXPECT_THROW(x.narrow(1, 0, -1), ValueError);
  expect_geometry(x.select(1, -1), {2}, {3}, 2);
  expect_geometry(x[1], {3}, {1}, 3);
  EXPECT_THROW(x.select(1, 3), IndexError);
  EXPECT_THROW(x.select(1, -4), IndexError);
  EXPECT_THROW(x.select(2, 0), IndexError);
  EXPECT_THROW(scalar_tensor(1.0).select(0, 0), IndexError);
  expect_geometry(x.slice(0, -10, 10), {2, 3}, {3, 1}, 0);
  expect_geometry(x.slice(0, 2, 1), {0, 3}, {3, 1}, 6);
  expect_geometry(x.slice(1, std::nullopt, std::nullopt, 2), {2, 2}, {3, 2}, 0);
  expect_geometry(x.slice(1, 1), {2, 2}, {3, 1}, 1);
  expect_geometry(brasa::slice(x, -1, -2), {2, 2}, {3, 1}, 1);
  EXPECT_THROW(x.slice(1, 0, 3, 0), ValueError);
  EXPECT_THROW(x.slice(1, 0, 3, -1), ValueError);
  EXPECT_THROW(scalar_tensor(1.0).slice(0), IndexError);
  EXPECT_EQ(values(x.select(1, 1)), (std::vector<float>{1, 4}));
}

TEST(View, AsStrided) {
  Tensor x = arange_f(6).view({2, 3});
  Tensor a = x[1].as_strided({2, 2}, {1, 1});
  expect_geometry(a, {2, 2}, {1, 1}, 3);
  EXPECT_EQ(values(a), (std::vector<float>{3, 4, 4, 5}));
  expect_geometry(x.as_strided({3}, {2}, 0), {3}, {2}, 0);
  EXPECT_THROW(x.as_strided({3, 3}, {3, 1}), ValueError);
  EXPECT_THROW(x.as_strided({2}, {1, 1}), ValueError);
  EXPECT_THROW(x.as_strided({2}, {-1}), ValueError);
  expect_geometry(x.as_strided({0}, {1}, 100), {0}, {1}, 100);
}

TEST(View, ChunkSplitUnbind) {
  auto geometry_of = [](const std::vector<Tensor>& ts) {
    std::vector<std::vector<int64_t>> g;
    for (const Tensor& t : ts) g.push_back({t.size(0), t.storage_offset()});
    return g;
  };
  using G = std::vector<std::vector<int64_t>>;
  Tensor x = empty({5, 2});
  EXPECT_EQ(geometry_of(x.chunk(3)), (G{{2, 0}, {2, 4}, {1, 8}}));
  EXPECT_EQ(geometry_of(empty({6}).chunk(4)), (G{{2, 0}, {2, 2}, {2, 4}}));
  EXPECT_EQ(geometry_of(empty({0, 2}).chunk(3)), (G{{0, 0}, {0, 0}, {0, 0}}));
  EXPECT_THROW(empty({6}).chunk(0), ValueError);
  EXPECT_THROW(scalar_tensor(1.0).chunk(2), ValueError);
  EXPECT_EQ(geometry_of(x.split(2)), (G{{2, 0}, {2, 4}, {1, 8}}));
  EXPECT_EQ(geometry_of(empty({0, 2}).split(2)), (G{{0, 0}}));
  EXPECT_THROW(x.split(0), ValueError);
  EXPECT_EQ(geometry_of(x.split(IntArrayRef{2, 3})), (G{{2, 0}, {3, 4}}));
  EXPECT_EQ(geometry_of(brasa::split_with_sizes(x, {5, 0})), (G{{5, 0}, {0, 10}}));
  EXPECT_THROW(x.split_with_sizes({2, 2}), ValueError);
  std::vector<Tensor> cols = empty({2, 3}).unbind(1);
  ASSERT_EQ(cols.size(), 3u);
  expect_geometry(cols[2], {2}, {3}, 2);
  EXPECT_THROW(scalar_tensor(1.0).unbind(), IndexError);
  EXPECT_EQ(brasa::unbind(empty({0, 3})).size(), 0u);
}

TEST(View, Diagonal) {
  Tensor x = empty({3, 4});
  expect_geometry(x.diagonal(), {3}, {5}, 0);
  expect_geometry(x.diagonal(2), {2}, {5}, 2);
  expect_geometry(x.diagonal(-1), {2}, {5}, 4);
  expect_geometry(x.diagonal(5), {0}, {5}, 0);
  expect_geometry(x.diagonal(-5), {0}, {5}, 0);
  expect_geometry(empty({2, 3, 4}).diagonal(1, 0, 2), {3, 2}, {4, 13}, 1);
  EXPECT_THROW(empty({2, 3, 4}).diagonal(0, 1, 1), ValueError);
  EXPECT_THROW(empty({3}).diagonal(), IndexError);
  Tensor m = arange_f(9).view({3, 3});
  EXPECT_EQ(values(brasa::diagonal(m)), (std::vector<float>{0, 4, 8}));
}

TEST(View, AliasAndResize) {
  Tensor x = arange_f(6);
  Tensor a = x.alias();
  expect_view_of(a, x);
  expect_geometry(a, {6}, {1}, 0);
  Tensor r = arange_f(4);
  r.resize_({2, 2});
  expect_geometry(r, {2, 2}, {2, 1}, 0);
  EXPECT_EQ(values(r), (std::vector<float>{0, 1, 2, 3}));
  r.resize_({3, 3});
  expect_geometry(r, {3, 3}, {3, 1}, 0);
  EXPECT_GE(r.storage()->nbytes(), 36u);
  EXPECT_EQ(values(r)[3], 3.0f);  // old contents kept
  EXPECT_THROW(r.resize_({-1}), ValueError);
  Tensor m = empty({2}, Device(kMeta));
  m.resize_({4, 5});
  EXPECT_EQ(m.sizes(), IntArrayRef({4, 5}));
}

TEST(View, MetaTensorsGetGeometryOnly) {
  Tensor m = empty({2, 3, 4}, Device(kMeta));
  Tensor v = m.permute({2, 0, 1}).reshape({4, 6});
  EXPECT_TRUE(v.is_meta());
  EXPECT_EQ(v.sizes(), IntArrayRef({4, 6}));
  expect_geometry(m.transpose(0, 1).reshape({6, 4}), {6, 4}, {4, 1}, 0);
  expect_geometry(m.diagonal(0, 0, 1).unsqueeze(0), {1, 4, 2}, {4, 1, 16}, 0);
  EXPECT_EQ(m.chunk(2, 2).size(), 2u);
  EXPECT_THROW(m.view({5}), ValueError);
}

TEST(View, EmptyTensors) {
  Tensor e = empty({0, 3});
  expect_geometry(e.t(), {3, 0}, {1, 3}, 0);
  expect_geometry(e.reshape({3, 0, 2}), {3, 0, 2}, {2, 2, 1}, 0);
  expect_geometry(e.unsqueeze(1).expand({0, 4, 3}), {0, 4, 3}, {3, 0, 1}, 0);
  expect_geometry(e.slice(1, 1), {0, 2}, {3, 1}, 1);
  expect_geometry(e.flatten(), {0}, {1}, 0);
}
