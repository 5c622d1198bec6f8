// BFloat16 convolutions (oneDNN's bf16 primitives where the CPU has AVX-512 BF16, the direct loop
// elsewhere) against Float convolutions of the same bf16-rounded values: forward, both gradients,
// grouped, strided, transposed and non-contiguous inputs.
#include <gtest/gtest.h>

#include "brasa/brasa.h"

namespace brasa {
namespace {

// |a - b| <= tol * (1 + |b|) elementwise, a in any dtype, b in Float.
void expect_near_float(const Tensor& a, const Tensor& b, double tol, const char* what) {
  ASSERT_EQ(a.sizes(), b.sizes()) << what;
  Tensor err = (a.to(kFloat) - b).abs() / (b.abs() + 1);
  EXPECT_LT(err.max().item<double>(), tol) << what;
}

struct Geometry {
  IntArrayRef x, w;
  int64_t stride, padding, groups;
  bool transposed;
};

void check(const Geometry& g) {
  manual_seed(7);
  Tensor x = rand(g.x).sub(0.5).to(kBFloat16), w = rand(g.w).sub(0.5).to(kBFloat16);
  Tensor b = rand({g.transposed ? g.w[1] * g.groups : g.w[0]}).sub(0.5).to(kBFloat16);
  auto run = [&](const Tensor& xi, const Tensor& wi, const Tensor& bi) {
    return g.transposed ? conv_transpose2d(xi, wi, bi, g.stride, g.padding, 0, g.groups)
                        : conv2d(xi, wi, bi, g.stride, g.padding, 1, g.groups);
  };
  Tensor xb = x.clone().requires_grad_(), wb = w.clone().requires_grad_();
  Tensor xf = x.to(kFloat).requires_grad_(), wf = w.to(kFloat).requires_grad_();
  Tensor yb = run(xb, wb, b), yf = run(xf, wf, b.to(kFloat));
  EXPECT_EQ(yb.scalar_type(), kBFloat16);
  expect_near_float(yb, yf, 2e-2, "forward");
  Tensor gy = rand(yf.sizes()).sub(0.5);
  yb.backward(gy.to(kBFloat16));
  yf.backward(gy.to(kBFloat16).to(kFloat));
  EXPECT_EQ(xb.grad().scalar_type(), kBFloat16);
  expect_near_float(xb.grad(), xf.grad(), 3e-2, "input gradient");
  // Weight gradients sum over the batch and positions: compare relative to their scale.
  const double scale = wf.grad().abs().max().item<double>();
  expect_near_float(wb.grad().to(kFloat) / scale, wf.grad() / scale, 3e-2, "weight gradient");
}

TEST(ConvBFloat16, MatchesFloatOfTheSameValues) {
  check({{2, 8, 12, 12}, {16, 8, 3, 3}, 1, 1, 1, false});
  check({{2, 8, 13, 11}, {8, 4, 3, 3}, 2, 0, 2, false});
  check({{1, 3, 9, 9}, {6, 3, 5, 5}, 1, 2, 1, false});
  check({{2, 4, 6, 6}, {4, 3, 3, 3}, 2, 1, 1, true});
}

TEST(ConvBFloat16, NonContiguousInput) {
  manual_seed(3);
  Tensor x = rand({2, 10, 10, 6}).sub(0.5).to(kBFloat16).permute({0, 3, 1, 2});
  Tensor w = rand({5, 6, 3, 3}).sub(0.5).to(kBFloat16);
  expect_near_float(conv2d(x, w, {}, 1, 1), conv2d(x.to(kFloat), w.to(kFloat), {}, 1, 1), 2e-2,
                    "channels-last input");
}

}  // namespace
}  // namespace brasa
