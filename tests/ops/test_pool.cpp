// Pooling and resampling: libtorch spellings and option structs, Meta shapes, typed errors that
// name the op and the shapes. Values and gradients against PyTorch: conformance family `pool`.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <string>

#include "brasa/nn/functional.h"
#include "brasa/ops/pool.h"

using namespace brasa;
namespace F = brasa::nn::functional;

namespace {

Tensor grid(int64_t h, int64_t w) { return arange(h * w, kFloat).reshape({1, 1, h, w}); }

void expect_values(const Tensor& t, std::initializer_list<double> values) {
  const Tensor flat = t.to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(flat.numel(), static_cast<int64_t>(values.size())) << t;
  int64_t i = 0;
  for (double v : values) EXPECT_NEAR(flat.data_ptr<double>()[i++], v, 1e-6) << t;
}

/// Runs f, expecting a brasa::ValueError whose text contains every needle.
template <typename Fn>
void expect_error(Fn f, std::initializer_list<const char*> needles) {
  try {
    f();
    ADD_FAILURE() << "no error thrown";
  } catch (const ValueError& e) {
    for (const char* n : needles)
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(Pool, TorchSpellings) {
  namespace TF = torch::nn::functional;
  torch::Tensor x = grid(4, 4);
  auto [v, idx] = TF::max_pool2d_with_indices(x, TF::MaxPool2dFuncOptions(2));
  expect_values(v, {5, 7, 13, 15});
  expect_values(idx, {5, 7, 13, 15});
  EXPECT_EQ(idx.scalar_type(), kLong);
  expect_values(TF::max_pool2d(x, TF::MaxPool2dFuncOptions({3, 3}).stride(2).padding(1)),
                {5, 7, 13, 15});
  expect_values(TF::avg_pool2d(x, TF::AvgPool2dFuncOptions(2).divisor_override(2)), {5, 9, 21, 25});
  expect_values(TF::adaptive_avg_pool2d(x, TF::AdaptiveAvgPool2dFuncOptions({1, std::nullopt})),
                {6, 7, 8, 9});
  expect_values(TF::adaptive_max_pool2d(x, TF::AdaptiveMaxPool2dFuncOptions(1)), {15});
  expect_values(TF::interpolate(grid(2, 2), TF::InterpolateFuncOptions()
                                                .size(std::vector<int64_t>{3, 3})
                                                .mode(torch::kBilinear)
                                                .align_corners(true)),
                {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  expect_values(
      TF::pad(arange(3, kFloat).reshape({1, 3}), TF::PadFuncOptions({2, 2}).mode(torch::kReflect)),
      {2, 1, 0, 1, 2, 1, 0});
  expect_values(TF::pad(arange(3, kFloat), TF::PadFuncOptions({1, -1}).value(7)), {7, 0, 1});
  expect_values(TF::fold(TF::unfold(x, TF::UnfoldFuncOptions(2)), TF::FoldFuncOptions(4, 2)),
                {0, 2, 4, 3, 8, 20, 24, 14, 16, 36, 40, 22, 12, 26, 28, 15});
  torch::Tensor s =
      TF::pixel_shuffle(arange(8, kFloat).reshape({1, 4, 1, 2}), TF::PixelShuffleFuncOptions(2));
  EXPECT_EQ(s.sizes(), IntArrayRef({1, 1, 2, 4}));
  EXPECT_TRUE(equal(TF::pixel_unshuffle(s, TF::PixelUnshuffleFuncOptions(2)),
                    arange(8, kFloat).reshape({1, 4, 1, 2})));
  EXPECT_EQ(torch::max_pool2d(x, {2, 2}).sizes(), IntArrayRef({1, 1, 2, 2}));
}

TEST(Pool, NanPropagatesAndBackwardScatters) {
  Tensor x = grid(2, 2);
  x.data_ptr<float>()[2] = NAN;
  auto [v, idx] = max_pool2d_with_indices(x, {2, 2});
  EXPECT_TRUE(std::isnan(v.data_ptr<float>()[0]));
  expect_values(idx, {2});
  expect_values(
      max_pool2d_with_indices_backward(ones({1, 1, 1, 1}), x, {2, 2}, {}, 0, 1, false, idx),
      {0, 0, 1, 0});
}

// Note [Max pooling loop] (backends/cpu/kernels/pool_kernels.cpp) against a plain window scan with
// PyTorch 1.13's rule (start at -inf and the first tap inside; take a tap that is greater or NaN):
// values from {-inf, -1, 0, 1, 2, NaN} (ties, NaN, -inf everywhere), every stride, padding,
// dilation and ceil_mode, widths with and without a partial last vector, float and double.
template <typename T>
void check_max_pool_2d(const Tensor& x, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil) {
  auto [v, idx] = max_pool2d_with_indices(x, {k, k}, {s, s}, {p, p}, {d, d}, ceil);
  const Tensor xc = x.contiguous();
  const int64_t H = x.size(2), W = x.size(3), OH = v.size(2), OW = v.size(3);
  const T* xp = xc.data_ptr<T>();
  const T* vp = v.data_ptr<T>();
  const int64_t* ip = idx.data_ptr<int64_t>();
  for (int64_t pl = 0; pl < x.size(0) * x.size(1); ++pl)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        T best = -INFINITY;
        int64_t at = -1;
        for (int64_t kh = 0; kh < k; ++kh)
          for (int64_t kw = 0; kw < k; ++kw) {
            const int64_t ih = oh * s - p + kh * d, iw = ow * s - p + kw * d;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
            const T e = xp[pl * H * W + ih * W + iw];
            if (at < 0) at = ih * W + iw;
            if (e > best || std::isnan(e)) best = e, at = ih * W + iw;
          }
        const int64_t o = (pl * OH + oh) * OW + ow;
        ASSERT_EQ(ip[o], at) << "k " << k << " s " << s << " p " << p << " d " << d << " ceil "
                             << ceil << " W " << W << " plane " << pl << " out " << oh << "," << ow;
        ASSERT_TRUE(vp[o] == best || (std::isnan(vp[o]) && std::isnan(best)));
      }
}

TEST(Pool, MaxPoolTiesNanInfAgainstWindowScan) {
  manual_seed(3);
  for (ScalarType dt : {kFloat, kDouble})
    for (int64_t w : {5, 9, 14, 23, 28})
      for (int64_t k : {1, 2, 3})
        for (int64_t s : {1, 2, 3})
          for (int64_t p = 0; p <= k / 2; ++p)
            for (int64_t d : {1, 2})
              for (bool ceil : {false, true}) {
                if ((k - 1) * d + 1 > w + 2 * p) continue;
                // codes 0..4 -> -inf, -1, 0, 1, 2 (a quarter of the 2s NaN): many ties
                const Tensor c = randint(0, 12, {2, 3, 7, w}).remainder(5);
                Tensor x = (c.to(kFloat) - 2).masked_fill(c.eq(0), -INFINITY);
                x = x.masked_fill(c.eq(4) & randint(0, 4, c.sizes()).eq(0), NAN).to(dt);
                if (w == 23) x = x.transpose(2, 3).contiguous().transpose(2, 3);  // strided
                if (dt == kFloat)
                  check_max_pool_2d<float>(x, k, s, p, d, ceil);
                else
                  check_max_pool_2d<double>(x, k, s, p, d, ceil);
              }
}

TEST(Pool, ReducedDtypesComputeInFloat) {
  for (ScalarType t : {kHalf, kBFloat16}) {
    Tensor r = avg_pool2d(grid(4, 4).to(t), {2, 2});
    EXPECT_EQ(r.scalar_type(), t);
    expect_values(r, {2.5, 4.5, 10.5, 12.5});
  }
}

TEST(Pool, MetaComputesShapesOnly) {
  const Tensor m = empty({2, 3, 9, 8}, Device(kMeta));
  auto [v, idx] = max_pool2d_with_indices(m, {3, 3}, {2, 2}, 1, 1, true);
  EXPECT_TRUE(v.is_meta());
  EXPECT_EQ(v.sizes(), IntArrayRef({2, 3, 5, 5}));
  EXPECT_EQ(idx.scalar_type(), kLong);
  EXPECT_EQ(avg_pool2d(m, {2, 2}).sizes(), IntArrayRef({2, 3, 4, 4}));
  EXPECT_EQ(adaptive_avg_pool2d(m, {3, 2}).sizes(), IntArrayRef({2, 3, 3, 2}));
  EXPECT_EQ(upsample_bilinear2d(m, {18, 16}, false).sizes(), IntArrayRef({2, 3, 18, 16}));
  EXPECT_EQ(
      upsample_nearest2d_backward(empty({2, 3, 18, 16}, Device(kMeta)), {18, 16}, {2, 3, 9, 8})
          .sizes(),
      IntArrayRef({2, 3, 9, 8}));
  EXPECT_EQ(reflection_pad2d(m, {1, 2, 3, 4}).sizes(), IntArrayRef({2, 3, 16, 11}));
  EXPECT_EQ(im2col(m, {2, 2}, 1, 0, 1).sizes(), IntArrayRef({2, 12, 56}));
  EXPECT_EQ(col2im(empty({2, 12, 56}, Device(kMeta)), {9, 8}, {2, 2}, 1, 0, 1).sizes(),
            IntArrayRef({2, 3, 9, 8}));
}

TEST(Pool, ErrorsNameOpAndShapes) {
  const Tensor x = grid(5, 5);
  expect_error([&] { max_pool2d(x, {2, 2}, {}, 2); }, {"max_pool2d", "pad should be at most half"});
  expect_error([&] { max_pool2d(x, {7, 7}); }, {"max_pool2d", "[1, 1, 5, 5]", "too small"});
  expect_error([&] { max_pool2d(ones({5, 5}), {2, 2}); }, {"max_pool2d", "[5, 5]"});
  expect_error([&] { max_pool2d(ones({2, 0, 5, 5}), {2, 2}); }, {"max_pool2d", "[2, 0, 5, 5]"});
  expect_error([&] { max_pool2d(x, {2, 2}, {0, 1}); }, {"max_pool2d", "stride"});
  expect_error([&] { avg_pool2d(x, {2, 2}, {}, 0, false, true, 0); }, {"avg_pool2d", "divisor"});
  expect_error([&] { adaptive_avg_pool2d(x, {-1, 2}); }, {"adaptive_avg_pool2d", "[-1, 2]"});
  expect_error([&] { reflection_pad1d(ones({1, 3}), {3, 0}); }, {"reflection_pad1d", "[1, 3]"});
  expect_error([&] { circular_pad1d(ones({1, 1, 3}), {4, 0}); }, {"circular_pad1d", "[1, 1, 3]"});
  expect_error([&] { constant_pad_nd(ones({3}), {-2, -2}); }, {"constant_pad_nd", "[3]"});
  expect_error([&] { pixel_shuffle(ones({1, 7, 2, 2}), 2); }, {"pixel_shuffle", "[1, 7, 2, 2]"});
  expect_error(
      [&] {
        pixel_unshuffle(ones({1, 2, 3, 4}), 2);
      },
      {"pixel_unshuffle", "[1, 2, 3, 4]"});
  expect_error([&] { col2im(ones({12, 15}), {5, 5}, {2, 2}, 1, 0, 1); }, {"col2im", "[12, 15]"});
  expect_error([&] { col2im(ones({10, 16}), {5, 5}, {2, 2}, 1, 0, 1); }, {"col2im", "[10, 16]"});
  expect_error([&] { im2col(x, {6, 6}, 1, 0, 1); }, {"im2col", "too small"});
  expect_error([&] { upsample_nearest2d(ones({2, 3, 4, 4}), {0, 2}); }, {"upsample_nearest2d"});
  expect_error(
      [&] {
        upsample_bilinear2d(ones({3, 4, 4}), {8, 8}, false);
      },
      {"upsample_bilinear2d", "[3, 4, 4]"});
  expect_error(
      [&] {
        max_pool2d_with_indices_backward(ones({1, 1, 3, 3}), x, {2, 2}, {}, 0, 1, false,
                                         zeros({1, 1, 2, 2}, kLong));
      },
      {"max_pool2d_with_indices_backward", "[1, 1, 2, 2]"});
  expect_error(
      [&] {
        F::interpolate(
            x, F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 4}).align_corners(true));
      },
      {"interpolate", "align_corners"});
  expect_error([&] { F::pad(ones({3}), F::PadFuncOptions({1, 1}).mode(kReplicate)); }, {"pad"});
  EXPECT_THROW(max_pool2d(ones({1, 1, 4, 4}, kInt), {2, 2}), TypeError);
  EXPECT_THROW(
      F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 4}).mode(kArea)),
      NotImplementedError);
  // The interpolating modes need their rank (PyTorch's ValueError) and a floating input.
  EXPECT_THROW(
      F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{4}).mode(kLinear)),
      ValueError);
  EXPECT_THROW(
      F::interpolate(ones({1, 1, 2, 2}, kLong),
                     F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 4}).mode(kBicubic)),
      TypeError);
}
