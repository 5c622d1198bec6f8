// Convolutions: values and gradients against PyTorch 1.13 (numbers from torch), the oneDNN path
// (Float) against the direct loop (Double), thread counts, meta shapes, the functional options and
// typed errors for bad input. Broad coverage lives in the conformance family "conv".
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "brasa/core/parallel.h"
#include "brasa/nn/functional.h"
#include "brasa/ops/conv.h"
#include "support/tensor_values.h"

using namespace brasa;
using namespace brasa::testing;

namespace {

void expect_near(const Tensor& got, const std::vector<double>& want, double tol = 1e-4) {
  const std::vector<double> g = values(got.contiguous());
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
}

Tensor seq(int64_t n, IntArrayRef sizes, double offset, double scale, ScalarType dt) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = (static_cast<double>(i) + offset) * scale;
  return make(v, sizes, dt);
}

Tensor rnd(IntArrayRef sizes, uint32_t seed, ScalarType dt) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return make(random_values(n, seed), sizes, dt);
}

template <typename F>
void expect_error_mentions(F f, const std::string& what) {
  try {
    f();
    FAIL() << "expected an error mentioning " << what;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

class ConvDtype : public ::testing::TestWithParam<ScalarType> {};

TEST_P(ConvDtype, Conv2dAndBackwardMatchTorch) {
  const ScalarType dt = GetParam();
  const double tol = dt == kBFloat16 ? 1e-2 : 1e-4;
  Tensor x = seq(16, {1, 1, 4, 4}, 0, 1, dt), w = seq(18, {2, 1, 3, 3}, -8, 1, dt);
  Tensor b = make({1, -1}, {2}, dt);
  Tensor y = conv2d(x, w, b, 1, 1);
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 2, 4, 4}));
  expect_near(
      y, {-6, -22, -37, -40, -44, -101, -137, -125, -128, -245, -281, -233, -196, -340, -373, -286,
          82, 138, 177, 120, 197, 302,  347,  224,  329,  482,  527,  332,  180,  252,  273,  162},
      tol);
  Tensor g = seq(32, {1, 2, 4, 4}, 0, 0.5, dt);
  auto [gi, gw, gb] =
      convolution_backward(g, x, w, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1, {true, true, true});
  expect_near(
      gi,
      {68, 128, 122, 106, 166.5, 304.5, 309, 253.5, 166.5, 322.5, 327, 277.5, 242, 422, 434, 336},
      tol);
  expect_near(gw,
              {276, 385, 294, 460, 620, 460, 294, 385, 276, 636, 913, 726, 1132, 1580, 1228, 942,
               1297, 996},
              tol);
  expect_near(gb, {60, 188}, tol);
  auto [gi2, gw2, gb2] =
      convolution_backward(g, x, w, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1, {false, true, false});
  EXPECT_FALSE(gi2.defined());
  EXPECT_TRUE(gw2.defined());
  EXPECT_FALSE(gb2.defined());
}

TEST_P(ConvDtype, ConvTranspose2dMatchesTorch) {
  const ScalarType dt = GetParam();
  Tensor x = seq(8, {1, 2, 2, 2}, 0, 1, dt), w = seq(16, {2, 1, 2, 4}, -5, 1, dt);
  Tensor y = conv_transpose2d(x, w, {}, {1, 2}, {0, 1}, {0, 1});
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 1, 3, 5}));
  expect_near(y, {16, 30, 40, 22, 28, 48, 100, 128, 72, 88, 48, 102, 120, 66, 76});
}

INSTANTIATE_TEST_SUITE_P(Conv, ConvDtype, ::testing::Values(kFloat, kDouble, kBFloat16));

// Float (oneDNN) and Double (direct loop) agree on grouped, strided, dilated geometries, forward
// and backward, transposed or not.
TEST(Conv, OneDnnMatchesDirectLoop) {
  struct Geo {
    DimVector x, w;
    DimVector stride, padding, dilation, output_padding;
    bool transposed;
    int64_t groups;
  };
  const std::vector<Geo> geos = {
      {{2, 8, 9, 7}, {12, 4, 3, 2}, {2, 1}, {1, 0}, {1, 2}, {0, 0}, false, 2},
      {{3, 6, 10}, {6, 1, 3}, {1}, {2}, {2}, {0}, false, 6},
      {{1, 4, 5, 6, 4}, {4, 4, 2, 3, 2}, {1, 2, 1}, {1, 1, 0}, {1, 1, 1}, {0, 0, 0}, false, 1},
      {{2, 4, 5, 6}, {4, 3, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 0}, true, 1},
      {{2, 4, 5, 6}, {4, 2, 2, 3}, {2, 1}, {0, 1}, {1, 2}, {1, 1}, true, 2},
  };
  uint32_t seed = 1;
  for (const Geo& g : geos) {
    Tensor xd = rnd(g.x, seed++, kDouble), wd = rnd(g.w, seed++, kDouble);
    const int64_t c_out = g.transposed ? g.w[1] * g.groups : g.w[0];
    Tensor bd = rnd({c_out}, seed++, kDouble);
    Tensor yd = convolution(xd, wd, bd, g.stride, g.padding, g.dilation, g.transposed,
                            g.output_padding, g.groups);
    Tensor yf = convolution(xd.to(kFloat), wd.to(kFloat), bd.to(kFloat), g.stride, g.padding,
                            g.dilation, g.transposed, g.output_padding, g.groups);
    expect_near(yf, values(yd), 1e-4);
    Tensor gy = rnd(yd.sizes(), seed++, kDouble);
    auto [a0, a1, a2] =
        convolution_backward(gy, xd, wd, g.stride, g.padding, g.dilation, g.transposed,
                             g.output_padding, g.groups, {true, true, true});
    auto [b0, b1, b2] = convolution_backward(gy.to(kFloat), xd.to(kFloat), wd.to(kFloat), g.stride,
                                             g.padding, g.dilation, g.transposed, g.output_padding,
                                             g.groups, {true, true, true});
    expect_near(b0, values(a0), 1e-4);
    expect_near(b1, values(a1), 1e-4);
    expect_near(b2, values(a2), 1e-4);
  }
}

TEST(Conv, ThreadCountsAndNonContiguousAgree) {
  const int saved = get_num_threads();
  Tensor x = rnd({4, 16, 12, 12}, 7, kFloat), w = rnd({32, 16, 3, 3}, 8, kFloat);
  set_num_threads(1);
  Tensor y1 = conv2d(x, w, {}, 1, 1);
  set_num_threads(2);
  Tensor y2 = conv2d(x, w, {}, 1, 1);
  Tensor cl = x.permute({0, 2, 3, 1}).contiguous().permute({0, 3, 1, 2});
  Tensor y3 = conv2d(cl, w, {}, 1, 1);
  set_num_threads(saved);
  expect_near(y2, values(y1), 1e-5);
  expect_near(y3, values(y1), 1e-5);
}

TEST(Conv, ShapesOfEdgeCases) {
  Tensor w = rnd({6, 4, 3, 3}, 3, kFloat);
  EXPECT_EQ(conv2d(rnd({0, 4, 7, 7}, 1, kFloat), w).sizes(), IntArrayRef({0, 6, 5, 5}));
  EXPECT_EQ(conv2d(rnd({4, 7, 7}, 1, kFloat), w).sizes(), IntArrayRef({6, 5, 5}));
  EXPECT_EQ(conv2d(rnd({1, 4, 7, 6}, 1, kFloat), w, {}, 1, "same").sizes(),
            IntArrayRef({1, 6, 7, 6}));
  EXPECT_EQ(conv2d(rnd({1, 4, 7, 6}, 1, kFloat), w, {}, 1, "valid").sizes(),
            IntArrayRef({1, 6, 5, 4}));
  Tensor meta = empty({2, 4, 9, 9}, TensorOptions(kMeta).dtype(kFloat));
  Tensor wm = empty({6, 4, 3, 3}, TensorOptions(kMeta).dtype(kFloat));
  Tensor ym = convolution(meta, wm, {}, {2, 2}, {1, 1}, {1, 1}, false, {0, 0}, 1);
  EXPECT_TRUE(ym.is_meta());
  EXPECT_EQ(ym.sizes(), IntArrayRef({2, 6, 5, 5}));
}

TEST(Conv, FunctionalOptions) {
  namespace F = brasa::nn::functional;
  Tensor x = rnd({2, 4, 7, 6}, 1, kFloat), w = rnd({6, 2, 3, 3}, 2, kFloat);
  Tensor b = rnd({6}, 3, kFloat);
  Tensor ref = conv2d(x, w, b, {2, 1}, {1, 0}, 1, 2);
  Tensor y = F::conv2d(
      x, w,
      F::Conv2dFuncOptions().stride({2, 1}).padding(ExpandingArray<2>({1, 0})).groups(2).bias(b));
  expect_near(y, values(ref), 1e-6);
  EXPECT_EQ(F::conv2d(x, w, F::Conv2dFuncOptions().padding(kSame).groups(2)).sizes(),
            IntArrayRef({2, 6, 7, 6}));
  EXPECT_EQ(F::conv1d(rnd({1, 2, 8}, 1, kFloat), rnd({3, 2, 3}, 1, kFloat),
                      F::Conv1dFuncOptions().padding(kValid))
                .sizes(),
            IntArrayRef({1, 3, 6}));
  Tensor t = F::conv_transpose2d(x, rnd({4, 3, 3, 3}, 4, kFloat),
                                 F::ConvTranspose2dFuncOptions().stride(2).output_padding(1));
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3, 16, 14}));
}

TEST(Conv, BadInputThrowsTypedErrors) {
  Tensor x = rnd({2, 4, 7, 6}, 1, kFloat), w = rnd({6, 4, 3, 3}, 2, kFloat);
  EXPECT_THROW(conv2d(rnd({2, 1, 4, 7, 6}, 1, kFloat), w), ValueError);
  expect_error_mentions([&] { conv2d(rnd({2, 1, 4, 7, 6}, 1, kFloat), w); }, "conv2d");
  EXPECT_THROW(conv2d(x, rnd({6, 4, 3}, 1, kFloat)), ValueError);
  EXPECT_THROW(conv2d(rnd({2, 5, 7, 6}, 1, kFloat), w), ValueError);
  expect_error_mentions([&] { conv2d(rnd({2, 5, 7, 6}, 1, kFloat), w); }, "[2, 5, 7, 6]");
  EXPECT_THROW(conv2d(x, rnd({5, 2, 3, 3}, 1, kFloat), {}, 1, 1, 1, 2), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, 1, 1, 1, 0), ValueError);
  EXPECT_THROW(conv2d(rnd({2, 4, 2, 6}, 1, kFloat), w), ValueError);
  expect_error_mentions([&] { conv2d(rnd({2, 4, 2, 6}, 1, kFloat), w); }, "kernel size");
  EXPECT_THROW(conv2d(x, w, {}, 0), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, -1), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, 1, -1), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, 1, 1, 0), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, {1, 1, 1}), ValueError);
  EXPECT_THROW(conv2d(x, w, rnd({5}, 1, kFloat)), ValueError);
  EXPECT_THROW(conv2d(x, w.to(kDouble)), TypeError);
  EXPECT_THROW(conv2d(x, w, rnd({6}, 1, kDouble)), TypeError);
  EXPECT_THROW(conv2d(x.to(kBool), w.to(kBool)), TypeError);
  EXPECT_THROW(conv_transpose2d(x.to(kInt), w.transpose(0, 1).to(kInt)), TypeError);
  EXPECT_THROW(conv2d(x, w, {}, 2, "same"), ValueError);
  EXPECT_THROW(conv2d(x, w, {}, 1, "full"), ValueError);
  EXPECT_THROW(conv_transpose2d(x, rnd({4, 3, 3, 3}, 1, kFloat), {}, 2, 1, 2), ValueError);
  EXPECT_THROW(conv_transpose2d(rnd({2, 5, 7, 6}, 1, kFloat), rnd({4, 3, 3, 3}, 1, kFloat)),
               ValueError);
  Tensor g = rnd({2, 6, 5, 4}, 1, kFloat);
  EXPECT_THROW(convolution_backward(g.narrow(3, 0, 3), x, w, {1}, {0}, {1}, false, {0}, 1,
                                    {true, true, true}),
               ValueError);
  EXPECT_THROW(
      convolution_backward(g.to(kDouble), x, w, {1}, {0}, {1}, false, {0}, 1, {true, true, true}),
      TypeError);
  EXPECT_THROW(conv2d(Tensor(), w), ValueError);
}

}  // namespace
