// Checks brasa makes where libtorch 1.13 returns a meaningless result instead of an error
// (conformance covers the rest of gradient, histogramdd and segment_reduce against PyTorch):
// coordinates of the wrong length, a bin count per dim of the wrong length, unsafe segments.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "brasa/brasa.h"

using namespace brasa;

TEST(NumericsChecks, GradientCoordinatesMustMatchTheDim) {
  Tensor f = ones({3, 3});
  std::vector<Tensor> coords = {arange(4.0), arange(3.0)};
  EXPECT_THROW(gradient(f, TensorList(coords)), ValueError);
  std::vector<Scalar> one = {Scalar(2.0)};
  EXPECT_THROW(gradient(f, ArrayRef<Scalar>(one)), ValueError);  // a list needs one per dim
  auto g = torch::gradient(f, std::optional<Scalar>(2.0));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_TRUE(equal(g[0], zeros({3, 3})));
  // Gradients flow to the samples and the coordinates.
  Tensor y = tensor({1.0, 4.0, 9.0, 16.0}, kDouble).requires_grad_();
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0}, kDouble).requires_grad_();
  std::vector<Tensor> xs = {x};
  gradient(y, TensorList(xs))[0].sum().backward();
  EXPECT_TRUE(y.grad().defined());
  EXPECT_TRUE(x.grad().defined());
}

TEST(NumericsChecks, HistogramddBinCountsPerDim) {
  Tensor pts = rand({10, 2});
  EXPECT_THROW(histogramdd(pts, IntArrayRef({2, 3, 4})), ValueError);
  auto [hist, edges] = torch::histogramdd(pts, IntArrayRef({2, 3}));
  EXPECT_EQ(hist.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(hist.sum().item<float>(), 10.0f);
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_FALSE(std::get<0>(torch::histogramdd(pts.requires_grad_(), 2)).requires_grad());
}

TEST(NumericsChecks, SegmentReduceUnsafeStaysInBounds) {
  Tensor data = arange(6.0);
  // Lengths past the data's end with unsafe: the segments are cut at the end, never read past it.
  Tensor r = segment_reduce(data, "sum", tensor({2, 9}), {}, {}, 0, true);
  EXPECT_TRUE(equal(r, tensor({1.0f, 14.0f})));
  EXPECT_THROW(segment_reduce(data, "sum", tensor({2, 9})), ValueError);
  Tensor out = empty({0});
  segment_reduce_out(out, data, "max", tensor({3, 3}));
  EXPECT_TRUE(equal(out, tensor({2.0f, 5.0f})));
}
