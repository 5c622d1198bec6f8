// repeat_interleave / one_hot / searchsorted / bucketize / unique / embedding / masked_scatter:
// values from PyTorch 1.13 and typed errors.
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
Tensor longs(std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v)); }
using V = std::vector<double>;
}  // namespace

TEST(RepeatInterleave, Forms) {
  Tensor x = longs({1, 2, 3, 4}).view({2, 2});
  EXPECT_EQ(values(repeat_interleave(x, 2)), V({1, 1, 2, 2, 3, 3, 4, 4}));
  Tensor r = repeat_interleave(x, longs({1, 2}), 0);
  EXPECT_EQ(r.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values(r), V({1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(values(repeat_interleave(x.t(), 2, -1)), V({1, 1, 3, 3, 2, 2, 4, 4}));
  EXPECT_EQ(values(repeat_interleave(longs({2, 0, 1}))), V({0, 0, 2}));
  EXPECT_EQ(repeat_interleave(empty({0}, kLong)).numel(), 0);
  EXPECT_THROW(repeat_interleave(x, longs({1, 2, 3}), 0), ValueError);
  EXPECT_THROW(repeat_interleave(x, -1), ValueError);
  EXPECT_THROW(repeat_interleave(longs({1, -1})), ValueError);
}

TEST(OneHot, Classes) {
  Tensor o = one_hot(longs({0, 2}), 4);
  EXPECT_EQ(o.dtype(), kLong);
  EXPECT_EQ(o.sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(values(o), V({1, 0, 0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(one_hot(longs({0, 2})).sizes(), IntArrayRef({2, 3}));
  EXPECT_THROW(one_hot(longs({0, 5}), 4), ValueError);
  EXPECT_THROW(one_hot(longs({-1}), 4), ValueError);
  EXPECT_THROW(one_hot(ones({1}), 4), TypeError);
  EXPECT_THROW(one_hot(empty({0}, kLong)), ValueError);
  EXPECT_EQ(one_hot(empty({0}, kLong), 3).sizes(), IntArrayRef({0, 3}));
}

TEST(Searchsorted, LeftRightAndBatched) {
  Tensor seq = longs({1, 3, 5, 7});
  Tensor v = longs({3, 6, 9, 0}).view({2, 2});
  EXPECT_EQ(values(searchsorted(seq, v)), V({1, 3, 4, 0}));
  EXPECT_EQ(values(searchsorted(seq, longs({3}), false, true)), V({2}));
  EXPECT_EQ(values(searchsorted(seq, longs({3}), false, false, "right")), V({2}));
  EXPECT_EQ(searchsorted(seq, longs({3}), true).dtype(), kInt);
  EXPECT_EQ(values(searchsorted(longs({1, 3, 2, 4}).view({2, 2}), longs({3, 3}).view({2, 1}))),
            V({1, 1}));
  EXPECT_EQ(values(bucketize(v, seq)), V({1, 3, 4, 0}));
  Tensor b = bucketize(tensor(int64_t(3)), seq, false, true);
  EXPECT_EQ(b.dim(), 0);
  EXPECT_EQ(b.item<int64_t>(), 2);
  EXPECT_THROW(searchsorted(longs({1, 3, 2, 4}).view({2, 2}), longs({3})), ValueError);
  EXPECT_THROW(searchsorted(seq, longs({3}), false, false, "middle"), ValueError);
  EXPECT_THROW(bucketize(v, seq.view({2, 2})), ValueError);
}

TEST(Unique, SortedInverseCounts) {
  auto [u, inv, counts] = unique(longs({3, 1, 3, 2, 1}), true, true, true);
  EXPECT_EQ(values(u), V({1, 2, 3}));
  EXPECT_EQ(values(inv), V({2, 0, 2, 1, 0}));
  EXPECT_EQ(values(counts), V({2, 1, 2}));
  auto [u2, inv2, c2] = unique(longs({2, 2, 1, 1}).view({2, 2}).t(), true, true, false);
  EXPECT_EQ(values(u2), V({1, 2}));
  EXPECT_EQ(inv2.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values(inv2), V({1, 0, 1, 0}));
  EXPECT_EQ(c2.numel(), 0);
  auto [u3, inv3, c3] = unique(empty({0}), true, true, true);
  EXPECT_EQ(u3.numel(), 0);
}

TEST(Embedding, RowsAndErrors) {
  Tensor w = arange(6, kFloat).view({3, 2});
  Tensor e = embedding(w, longs({0, 2}).view({1, 2}));
  EXPECT_EQ(e.sizes(), IntArrayRef({1, 2, 2}));
  EXPECT_EQ(values(e), V({0, 1, 4, 5}));
  EXPECT_THROW(embedding(w, longs({3})), IndexError);
  EXPECT_THROW(embedding(w, ones({1})), TypeError);
}

TEST(MaskedScatter, FillsInOrder) {
  Tensor m = tensor({true, false});
  EXPECT_EQ(values(masked_scatter(zeros({2, 2}), m, arange(5, kFloat))), V({0, 0, 1, 0}));
  EXPECT_THROW(masked_scatter(zeros({2, 2}), tensor({true, true}), arange(3, kFloat)), ValueError);
  EXPECT_THROW(masked_scatter(zeros({2, 2}), m, arange(5, kLong)), TypeError);
}

TEST(EmbeddingBag, ModesOffsetsAndOptions) {
  Tensor w = arange(12, kFloat).view({4, 3});
  Tensor i = longs({0, 2, 1, 3, 3});
  Tensor o = longs({0, 2, 2});
  EXPECT_EQ(values(embedding_bag(w, i, o, "sum")), V({6, 8, 10, 0, 0, 0, 21, 24, 27}));
  EXPECT_EQ(values(embedding_bag(w, i, o, "mean")), V({3, 4, 5, 0, 0, 0, 7, 8, 9}));
  EXPECT_EQ(values(embedding_bag(w, i, o, "max")), V({6, 7, 8, 0, 0, 0, 9, 10, 11}));
  EXPECT_EQ(values(embedding_bag(w, i, longs({0, 2, 4}), "sum", {}, true)),
            V({6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(values(embedding_bag(w, i, o, "mean", {}, false, 3)), V({3, 4, 5, 0, 0, 0, 3, 4, 5}));
  Tensor psw = tensor(std::vector<float>{1, 2, 1, 1, 0.5});
  EXPECT_EQ(values(embedding_bag(w, i, o, "sum", psw)), V({12, 15, 18, 0, 0, 0, 16.5, 19, 21.5}));
  EXPECT_EQ(values(embedding_bag(w, longs({0, 1, 2, 3}).view({2, 2}), {}, "max")),
            V({3, 4, 5, 9, 10, 11}));
  EXPECT_THROW(embedding_bag(w, i, longs({1, 2})), ValueError);
  EXPECT_THROW(embedding_bag(w, i, o, "max", ones({5})), ValueError);
  EXPECT_THROW(embedding_bag(w, i, o, "median"), ValueError);
  EXPECT_THROW(embedding_bag(w, longs({4}), longs({0})), IndexError);
}

TEST(Embedding, RenormRowsAboveMaxNorm) {
  Tensor w = arange(12, kFloat).view({4, 3});
  embedding_renorm_(w, longs({1, 3, 3}), 5.0, 2.0);
  V got = values(w);
  V want = {0, 1, 2, 2.1213202, 2.8284271, 3.5355339, 6, 7, 8, 2.5894589, 2.8771768, 3.1648943};
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-5) << k;
}
