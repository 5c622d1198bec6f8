// Derivatives of the products, convolution, pooling/resampling and attention: float64
// finite-difference checks (gradcheck, gradgradcheck) and the graph they record.

#include <gtest/gtest.h>

#include <limits>

#include "brasa/autograd/gradcheck.h"
#include "brasa/brasa.h"

namespace brasa {
namespace {

using autograd::gradcheck;
using autograd::gradgradcheck;
using autograd::variable_list;

Tensor leaf(IntArrayRef shape) { return randn(shape, TensorOptions(kDouble)).requires_grad_(true); }

TEST(NnGrad, MmAddmmAndFriends) {
  manual_seed(1);
  Tensor a = leaf({3, 4}), b = leaf({4, 2}), self = leaf({2}), v = leaf({4}), w = leaf({4});
  EXPECT_TRUE(
      gradcheck([](const variable_list& x) { return variable_list{mm(x[0], x[1])}; }, {a, b}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) { return variable_list{addmm(x[0], x[1], x[2], 0.5, -2.0)}; },
      {self, a, b}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) { return variable_list{addmv(x[0], x[1], x[2], 2.0, 3.0)}; },
      {leaf({3}), a, v}));
  EXPECT_TRUE(
      gradcheck([](const variable_list& x) { return variable_list{dot(x[0], x[1])}; }, {v, w}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) { return variable_list{baddbmm(x[0], x[1], x[2], 1.5, 0.5)}; },
      {leaf({1, 3, 2}), leaf({2, 3, 4}), leaf({2, 4, 2})}));
  EXPECT_EQ(mm(a, b).grad_fn()->name(), "MmBackward0");
  EXPECT_EQ(addmm(self, a, b).grad_fn()->name(), "AddmmBackward0");
}

TEST(NnGrad, MatmulBroadcastAndTransposed) {
  manual_seed(2);
  auto fn = [](const variable_list& x) { return variable_list{matmul(x[0], x[1])}; };
  EXPECT_TRUE(gradcheck(fn, {leaf({2, 1, 3, 4}), leaf({3, 4, 2})}));
  EXPECT_TRUE(gradcheck(fn, {leaf({4, 3}).t(), leaf({2, 3, 4}).transpose(1, 2)}));
  EXPECT_TRUE(gradcheck(fn, {leaf({5}), leaf({2, 5, 3})}));
  EXPECT_TRUE(
      gradcheck([](const variable_list& x) { return variable_list{linear(x[0], x[1], x[2])}; },
                {leaf({2, 3, 4}), leaf({5, 4}), leaf({5})}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return variable_list{einsum("bij,jk->bik", {x[0], x[1]})};
      },
      {leaf({2, 3, 4}), leaf({4, 2})}));
}

TEST(NnGrad, ProductsDifferentiateTwice) {
  manual_seed(3);
  EXPECT_TRUE(gradgradcheck([](const variable_list& x) { return variable_list{mm(x[0], x[1])}; },
                            {leaf({3, 4}), leaf({4, 2})}));
  EXPECT_TRUE(
      gradgradcheck([](const variable_list& x) { return variable_list{matmul(x[0], x[1])}; },
                    {leaf({2, 1, 3, 4}), leaf({3, 4, 2})}));
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& x) { return variable_list{addmv(x[0], x[1], x[2], 2.0, 3.0)}; },
      {leaf({3}), leaf({3, 4}), leaf({4})}));
}

TEST(NnGrad, Convolution) {
  manual_seed(4);
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return variable_list{conv2d(x[0], x[1], x[2], /*stride=*/2, /*padding=*/1, 1, 2)};
      },
      {leaf({2, 4, 5, 6}), leaf({6, 2, 3, 3}), leaf({6})}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return variable_list{conv_transpose1d(x[0], x[1], x[2], 2, 1, 1)};
      },
      {leaf({1, 2, 5}), leaf({2, 3, 3}), leaf({3})}));
  Tensor y = conv2d(leaf({1, 1, 3, 3}), leaf({1, 1, 2, 2}));
  EXPECT_EQ(y.grad_fn()->name(), "ConvolutionBackward0");
}

TEST(NnGrad, ConvolutionDifferentiatesTwice) {
  manual_seed(8);
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& x) {
        return variable_list{conv2d(x[0], x[1], x[2], /*stride=*/{2, 1}, /*padding=*/1, 1, 2)};
      },
      {leaf({1, 4, 4, 3}), leaf({2, 2, 2, 2}), leaf({2})}));
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& x) {
        return variable_list{conv_transpose1d(x[0], x[1], x[2], 2, 1, 1)};
      },
      {leaf({1, 2, 3}), leaf({2, 3, 2}), leaf({3})}));
}

TEST(NnGrad, Pooling) {
  manual_seed(5);
  Tensor x = leaf({2, 3, 6, 5});
  EXPECT_TRUE(gradcheck(
      [](const variable_list& in) {
        return variable_list{max_pool2d(in[0], {3, 2}, {2, 2}, {1, 0}, 1, true)};
      },
      {x}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& in) {
        return variable_list{avg_pool2d(in[0], {3, 2}, {2, 1}, {1, 1}, true, false)};
      },
      {x}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& in) {
        return variable_list{adaptive_avg_pool2d(in[0], {4, 3}),
                             std::get<0>(adaptive_max_pool2d(in[0], {2, 3}))};
      },
      {x}));
  auto [values, indices] = max_pool2d_with_indices(x, {2, 2});
  EXPECT_EQ(values.grad_fn()->name(), "MaxPool2DWithIndicesBackward0");
  EXPECT_FALSE(indices.requires_grad());
}

TEST(NnGrad, ResamplingPaddingFold) {
  manual_seed(6);
  Tensor x = leaf({1, 2, 3, 4});
  EXPECT_TRUE(gradcheck(
      [](const variable_list& in) {
        namespace F = nn::functional;
        return variable_list{F::interpolate(in[0], F::InterpolateFuncOptions()
                                                       .size(std::vector<int64_t>{5, 7})
                                                       .mode(enumtype::kBilinear{})
                                                       .align_corners(false)),
                             upsample_nearest2d(in[0], {6, 6})};
      },
      {x}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& in) {
        return variable_list{
            reflection_pad2d(in[0], {1, 2, 2, 0}), replication_pad2d(in[0], {2, 1, 0, 3}),
            circular_pad2d(in[0], {1, 1, 1, 1}), constant_pad_nd(in[0], {1, -1, -1, 2}, 0.5)};
      },
      {x}));
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& in) {
        return variable_list{im2col(in[0], {2, 3}, {1, 1}, {1, 0}, {1, 2})};
      },
      {x}));
  EXPECT_TRUE(
      gradcheck([](const variable_list& in) { return variable_list{pixel_shuffle(in[0], 2)}; },
                {leaf({1, 8, 2, 3})}));
}

TEST(NnGrad, PoolingAndResamplingDifferentiateTwice) {
  manual_seed(9);
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& in) {
        return variable_list{max_pool2d(in[0], {2, 2}, {1, 2}), avg_pool1d(in[0][0], {2}, {1}),
                             std::get<0>(adaptive_max_pool2d(in[0], {2, 2})),
                             adaptive_avg_pool2d(in[0], {2, 1})};
      },
      {leaf({1, 2, 3, 4})}));
  EXPECT_TRUE(gradgradcheck(
      [](const variable_list& in) {
        return variable_list{
            upsample_bilinear2d(in[0], {4, 5}, true), upsample_nearest2d(in[0], {3, 5}),
            reflection_pad2d(in[0], {1, 2, 0, 1}), replication_pad2d(in[0], {0, 1, 1, 0})};
      },
      {leaf({1, 2, 2, 3})}));
}

TEST(NnGrad, ScaledDotProductAttention) {
  manual_seed(7);
  Tensor q = leaf({2, 3, 4}), k = leaf({2, 5, 4}), v = leaf({1, 5, 3});
  auto plain = [](const variable_list& x) {
    return variable_list{scaled_dot_product_attention(x[0], x[1], x[2])};
  };
  EXPECT_TRUE(gradcheck(plain, {q, k, v}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return variable_list{scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true, 0.7)};
      },
      {q, k, v}));
  EXPECT_TRUE(gradcheck(
      [](const variable_list& x) {
        return variable_list{scaled_dot_product_attention(x[0], x[1], x[2], x[3])};
      },
      {q, k, v, leaf({3, 5})}));
  EXPECT_TRUE(gradgradcheck(plain, {q, k, v}));
}

TEST(NnGrad, AttentionFullyMaskedRowPassesNoScoreGradient) {
  Tensor q = leaf({2, 3}), k = leaf({4, 3}), v = leaf({4, 2});
  Tensor mask = zeros({1, 4}, TensorOptions(kBool));
  scaled_dot_product_attention(q, k, v, mask).sum().backward();
  EXPECT_EQ(q.grad().abs().sum().item<double>(), 0.0);
  EXPECT_EQ(k.grad().abs().sum().item<double>(), 0.0);
  EXPECT_TRUE(v.grad().isnan().all().item<bool>());
}

}  // namespace
}  // namespace brasa
