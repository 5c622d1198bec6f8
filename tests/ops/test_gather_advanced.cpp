// Advanced indexing in Tensor::index / index_put_ and brasa::index_put_ (accumulate): int64 and
// bool tensor indices, broadcasting, adjacency rule for the result's layout, and typed errors.
// Expected values come from PyTorch 1.13.
#include <gtest/gtest.h>

#include <vector>

#include "brasa/brasa.h"
#include "brasa/ops/indexing_ops.h"

using namespace brasa;
using namespace brasa::indexing;

namespace {
std::vector<double> values(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}
Tensor longs(std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v)); }
using V = std::vector<double>;
Tensor cube() { return arange(24, kFloat).view({2, 3, 4}); }
}  // namespace

TEST(AdvancedIndex, IntegerIndicesBroadcast) {
  Tensor r = cube().index({Slice(), longs({0, 2}), longs({1, 3}).view({2, 1})});
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 2, 2}));
  EXPECT_EQ(values(r), V({1, 9, 3, 11, 13, 21, 15, 23}));
  // not adjacent: the index shape goes first
  Tensor s = cube().index({longs({0}), Slice(), longs({1, 3}).view({2, 1})});
  EXPECT_EQ(s.sizes(), IntArrayRef({2, 1, 3}));
  EXPECT_EQ(values(s), V({1, 5, 9, 3, 7, 11}));
  // negative indices, non-contiguous self
  EXPECT_EQ(values(cube().transpose(0, 2).index({longs({3, -1})})),
            V({3, 15, 7, 19, 11, 23, 3, 15, 7, 19, 11, 23}));
  EXPECT_EQ(cube().index({None, longs({1}).view({1, 1}), Slice(1)}).sizes(),
            IntArrayRef({1, 1, 1, 2, 4}));
  EXPECT_EQ(cube().index({Ellipsis, longs({0, 1}).view({1, 2})}).sizes(),
            IntArrayRef({2, 3, 1, 2}));
  EXPECT_EQ(cube().index({empty({0}, kLong)}).sizes(), IntArrayRef({0, 3, 4}));
  Tensor c = cube();
  Tensor copy = c.index({longs({0})});
  copy.fill_(-1);
  EXPECT_EQ(values(c), values(cube()));  // a copy, not a view
}

TEST(AdvancedIndex, BoolMasks) {
  Tensor mask = tensor({true, false, true, false, false, true}).view({2, 3});
  Tensor r = cube().index({mask});
  EXPECT_EQ(r.sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(values(r.select(1, 0)), V({0, 8, 20}));
  EXPECT_EQ(values(arange(4).index({arange(4).gt(1)})), V({2, 3}));
  EXPECT_EQ(values(arange(4).index({arange(4).gt(1).to(kByte)})), V({2, 3}));
}

TEST(AdvancedIndex, Errors) {
  EXPECT_THROW(cube().index({longs({5})}), IndexError);
  EXPECT_THROW(cube().index({longs({-3})}), IndexError);
  EXPECT_THROW(cube().index({Slice(), longs({0, 1}), longs({0, 1, 2})}), IndexError);
  EXPECT_THROW(cube().index({tensor({true, false, true})}), IndexError);
  EXPECT_THROW(cube().index({longs({0}).to(kInt)}), IndexError);
  EXPECT_THROW(cube().index({longs({0}).to(kFloat)}), IndexError);
  try {
    cube().index({Slice(), longs({7})});
    FAIL();
  } catch (const IndexError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("index 7 is out of bounds for dimension 1 with size 3"), std::string::npos)
        << m;
  }
}

TEST(AdvancedIndex, IndexPut) {
  Tensor y = zeros({2, 3});
  y.index_put_({tensor({true, false}), longs({2})}, 7);
  EXPECT_EQ(values(y), V({0, 0, 7, 0, 0, 0}));
  Tensor z = zeros({2, 3});
  z.index_put_({tensor({true, false, true, false, true, false}).view({2, 3})},
               tensor(std::vector<float>{1, 2, 3}));
  EXPECT_EQ(values(z), V({1, 0, 2, 0, 3, 0}));
  Tensor w = zeros({3, 2}).t();  // non-contiguous target
  w.index_put_({Slice(), longs({0, 2})}, tensor(std::vector<float>{5, 6}));
  EXPECT_EQ(values(w), V({5, 0, 6, 5, 0, 6}));
  EXPECT_THROW(z.index_put_({longs({0})}, ones({3}, kLong)), TypeError);
  EXPECT_THROW(z.index_put_({longs({2})}, 1.0), IndexError);
  EXPECT_EQ(values(z), V({1, 0, 2, 0, 3, 0}));  // untouched by the failed writes
}

TEST(AdvancedIndex, IndexPutAccumulate) {
  Tensor y = zeros({5});
  index_put_(y, {longs({0, 0, 2, -1})}, tensor(1.0f), true);
  EXPECT_EQ(values(y), V({2, 0, 1, 0, 1}));
  Tensor z = zeros({2, 3});
  index_put_(z, {std::nullopt, longs({0, 0, 2})}, tensor(std::vector<float>{1, 2, 3}), true);
  EXPECT_EQ(values(z), V({3, 0, 3, 3, 0, 3}));
  Tensor r = index_put(z, {longs({1})}, tensor(std::vector<float>{1, 1, 1}), false);
  EXPECT_EQ(values(r), V({3, 0, 3, 1, 1, 1}));
  EXPECT_EQ(values(index(r, {std::nullopt, longs({2})})), V({3, 1}));
}
