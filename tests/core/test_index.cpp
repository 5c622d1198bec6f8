// libtorch indexing (t.index / t.index_put_) against PyTorch 1.13's results for the same Python
// subscripts.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"
#include "support/geometry.h"

using namespace brasa;
using namespace brasa::indexing;

namespace {

// brasa::arange over float, the values the geometry checks read back.
Tensor arange_f(int64_t n) { return arange(n, kFloat); }

std::vector<float> values(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

}  // namespace

TEST(Index, BasicIndicesGiveViews) {
  Tensor x = empty({2, 3, 4});
  Tensor v = x.index({Slice(1, None), None, Ellipsis, 2});  // x[1:, None, ..., 2]
  expect_geometry(v, {1, 1, 3}, {12, 12, 4}, 14);
  EXPECT_TRUE(v.is_view());
  Tensor y = arange_f(6).view({2, 3});
  expect_geometry(y.index({Slice(), Slice(1, None)}), {2, 2}, {3, 1}, 1);
  expect_geometry(y.index({"...", Slice(None, None, 2)}), {2, 2}, {3, 2}, 0);
  expect_geometry(y.index({None, 1}), {1, 3}, {6, 1}, 3);
  expect_geometry(y.index({-1, Slice(-2, None)}), {2}, {1}, 4);
  expect_geometry(y.index({Slice(None, 2)}), {2, 3}, {3, 1}, 0);
  expect_geometry(y.index({Slice(1, None, 2)}), {1, 3}, {6, 1}, 3);
  expect_geometry(y.index({Slice(-10, 10)}), {2, 3}, {3, 1}, 0);
  expect_geometry(y.index({Slice(2, 1)}), {0, 3}, {3, 1}, 6);
  expect_geometry(y.index({Ellipsis, 0}), {2}, {3}, 0);
  EXPECT_EQ(values(y.index({1})), (std::vector<float>{3, 4, 5}));
  // libtorch rejects an empty index list; {Ellipsis} is all of y.
  EXPECT_THROW(y.index({}), ValueError);
  EXPECT_THROW(y.index(std::vector<TensorIndex>{}), ValueError);
  EXPECT_THROW(y.index_put_({}, 1), ValueError);
  Tensor all = y.index({Ellipsis});
  EXPECT_TRUE(all.is_view());
  expect_geometry(all, {2, 3}, {3, 1}, 0);
  y.index({0, 1}).fill_(-1);
  EXPECT_EQ(values(y)[1], -1.0f);
}

TEST(Index, ZeroDimTensors) {
  Tensor s = scalar_tensor(2.5);
  expect_geometry(s.index({None}), {1}, {1}, 0);
  expect_geometry(s.index({Ellipsis}), {}, {}, 0);
  EXPECT_THROW(s.index({0}), IndexError);
  EXPECT_THROW(s.index({Slice()}), IndexError);
}

TEST(Index, BoolIndicesMergeLikePyTorch) {
  Tensor x = arange_f(6).view({2, 3});
  Tensor t = x.index({true});
  EXPECT_EQ(t.sizes(), IntArrayRef({1, 2, 3}));
  EXPECT_FALSE(t.is_view());  // PyTorch returns a copy
  EXPECT_EQ(values(t), values(x));
  EXPECT_EQ(x.index({true, true}).sizes(), IntArrayRef({1, 2, 3}));
  EXPECT_EQ(x.index({true, 0, true}).sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(x.index({true, Slice(), true}).sizes(), IntArrayRef({1, 2, 3}));
  EXPECT_EQ(x.index({false}).sizes(), IntArrayRef({0, 2, 3}));
  EXPECT_EQ(x.index({Slice(), false}).sizes(), IntArrayRef({2, 0, 3}));
}

TEST(Index, ZeroDimTensorIndicesActLikeScalars) {
  Tensor x = arange_f(6).view({2, 3});
  Tensor r = x.index({Slice(), scalar_tensor(2, kLong)});
  expect_geometry(r, {2}, {3}, 2);
  EXPECT_TRUE(r.is_view());
  EXPECT_EQ(x.index({scalar_tensor(true, kBool)}).sizes(), IntArrayRef({1, 2, 3}));
}

TEST(Index, Errors) {
  Tensor x = empty({2, 3});
  EXPECT_THROW(x.index({0, 0, 0}), IndexError);
  EXPECT_THROW(x.index({5}), IndexError);
  EXPECT_THROW(x.index({Slice(), 3}), IndexError);
  EXPECT_THROW(x.index({Slice(), -4}), IndexError);
  EXPECT_THROW(x.index({Ellipsis, Ellipsis}), IndexError);
  EXPECT_THROW(Slice(0, 2, 0), ValueError);
  EXPECT_THROW(x.index({Slice(None, None, -1)}), ValueError);
  EXPECT_THROW(TensorIndex("..x"), ValueError);
  EXPECT_THROW(x.index({full({1}, 2, kLong)}), IndexError);
  EXPECT_THROW(x.index_put_({ones({3}, kBool)}, 1.0), IndexError);
  EXPECT_THROW(x.index({ones({2}, kFloat)}), IndexError);
  EXPECT_THROW(Tensor().index({0}), ValueError);
}

TEST(Index, IndexPutBroadcastsIntoTheView) {
  // y[0] = [[1, 2, 3]]; y[:, 1] = 7; y[1, ..., 0:1] = [9.]  ->  [[1, 7, 3], [9, 7, 0]]
  Tensor y = zeros({2, 3});
  Tensor row = arange_f(3).add(1).view({1, 3});
  y.index_put_({0}, row);
  y.index_put_({Slice(), 1}, 7);
  y.index_put_({1, Ellipsis, Slice(0, 1)}, full({1}, 9.0));
  EXPECT_EQ(values(y), (std::vector<float>{1, 7, 3, 9, 7, 0}));
  y.index_put_({Slice(), 2}, scalar_tensor(4, kLong));  // converts dtype
  EXPECT_EQ(values(y)[5], 4.0f);
  EXPECT_THROW(y.index_put_({0}, ones({2, 3})), ValueError);
  std::vector<TensorIndex> idx = {Slice(), 0};
  y.index_put_(idx, -2.0);
  EXPECT_EQ(values(y)[3], -2.0f);
}

TEST(Index, IndexPutWithBools) {
  Tensor z = zeros({2, 3});
  z.index_put_({true}, 5);
  EXPECT_EQ(values(z), std::vector<float>(6, 5.0f));
  z.index_put_({false}, 1);
  EXPECT_EQ(values(z), std::vector<float>(6, 5.0f));
}

TEST(Index, MetaTensors) {
  Tensor m = empty({2, 3, 4}, Device(kMeta));
  Tensor v = m.index({Slice(1, None), None, Ellipsis, 2});
  EXPECT_TRUE(v.is_meta());
  expect_geometry(v, {1, 1, 3}, {12, 12, 4}, 14);
  m.index_put_({0}, 1.0);
}

TEST(Index, StreamsIndicesLikeLibtorch) {
  std::ostringstream ss;
  ss << Slice(1, None) << " " << TensorIndex(None) << " " << TensorIndex(Ellipsis) << " "
     << TensorIndex(3) << " " << TensorIndex(true);
  EXPECT_EQ(ss.str(), "1:9223372036854775807:1 None ... 3 true");
}

// Note [One integer index]: one in-range int64 index is an index_select; negative and bad
// positions still take the general path (wrap, IndexError naming the position).
TEST(Index, OneIntegerIndexLikePyTorch) {
  Tensor x = arange_f(24).view({2, 3, 4});
  Tensor i = tensor({2, 0, 2}, TensorOptions(kLong)).view({3, 1});
  Tensor r = x.index({Slice(), i});  // x[:, i]: [2, 3, 1, 4]
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 3, 1, 4}));
  EXPECT_EQ(values(r.index({1, 0, 0})), (std::vector<float>{20, 21, 22, 23}));
  EXPECT_EQ(values(r.index({0, 1, 0})), (std::vector<float>{0, 1, 2, 3}));
  // a non-contiguous view, and a negative position (general path): x.transpose(0, 2)[[-1, 1]]
  Tensor t = x.transpose(0, 2);
  Tensor neg = t.index({tensor({-1, 1}, TensorOptions(kLong))});
  Tensor pos = t.index({tensor({3, 1}, TensorOptions(kLong))});
  EXPECT_EQ(values(neg), values(pos));
  EXPECT_EQ(values(pos.index({0, 2})), (std::vector<float>{11, 23}));
  // empty index, and out of range (the general path's message)
  EXPECT_EQ(x.index({empty({0}, kLong)}).sizes(), IntArrayRef({0, 3, 4}));
  try {
    x.index({Slice(), tensor({1, 3}, TensorOptions(kLong))});
    ADD_FAILURE() << "no IndexError";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("index 3 is out of bounds for dimension 1 with size 3"),
              std::string::npos)
        << e.what();
  }
  // gradient: repeated positions add up
  Tensor w = arange_f(6).view({3, 2}).requires_grad_(true);
  w.index({tensor({2, 0, 2}, TensorOptions(kLong))}).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<float>{1, 1, 0, 0, 2, 2}));
}
