// Matmul epilogues (Note [Matmul epilogues] in src/compile/matmul_epilogue.cpp): linear / addmm /
// mm followed by a bias add, a residual add, a scalar mul or div, relu run as one oneDNN matmul
// with post-ops in compiled graphs, forward and backward; results agree with eager within the
// reduction tolerance (1e-5 relative to sum |a||b|), over odd sizes, strided operands and new
// batch sizes, and chains the step cannot take (a value read twice) stay eager's.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using MatmulEpilogues = CompileTest;

/// |got - want| <= 1e-5 * scale elementwise (scale: the same computation over absolute values).
void expect_close(const Tensor& got, const Tensor& want, const Tensor& scale) {
  ASSERT_EQ(got.sizes(), want.sizes());
  const Tensor bound = scale.to(kDouble) * 1e-5 + 1e-30;
  const Tensor diff = (got.to(kDouble) - want.to(kDouble)).abs();
  EXPECT_TRUE((diff <= bound).all().item<bool>())
      << "max diff " << diff.max().item<double>() << " at bound " << bound.max().item<double>();
}

Tensor linear_block(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& r) {
  return (linear(x, w, b) + r).mul(0.5).relu();
}

TEST_F(MatmulEpilogues, LinearBiasResidualScaleReluForward) {
  auto f = brasa::compile(linear_block);
  for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{37, 13, 19},
                         {64, 128, 96},
                         {5, 300, 33},
                         {1, 7, 1}}) {
    const Tensor x = randn({m, k}), w = randn({n, k}), b = randn({n}), r = randn({m, n});
    const Tensor want = linear_block(x, w, b, r);
    const Tensor scale = ((matmul(x.abs(), w.abs().t()) + b.abs() + r.abs()) * 0.5);
    f(x, w, b, r);  // traced
    expect_close(f(x, w, b, r), want, scale);
  }
  EXPECT_GE(compile_stats().matmul_epilogues, 1);
}

TEST_F(MatmulEpilogues, ThreeDimLinearThroughViewsAndNewBatchSizes) {
  // linear over [B, T, C] is view, mm, view, add(bias): one step, reused for every batch size.
  auto fn = [](const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& s) {
    return (linear(x, w, b) + x).relu() * s / 4.0;
  };
  auto f = brasa::compile(fn);
  const Tensor w = randn({23, 23}), b = randn({23}), s = randn({});
  int64_t runs = -1;
  for (int64_t batch : {6, 3, 11, 2}) {
    const Tensor x = randn({batch, 7, 23});
    const Tensor scale = (matmul(x.abs(), w.abs().t()) + b.abs() + x.abs()) * s.abs() / 4.0;
    f(x, w, b, s);
    expect_close(f(x, w, b, s), fn(x, w, b, s), scale);
    if (runs < 0) runs = compile_stats().compiler_runs;
  }
  EXPECT_EQ(compile_stats().compiler_runs, runs);
  EXPECT_GE(compile_stats().matmul_epilogues, 1);
}

TEST_F(MatmulEpilogues, StridedOperandsAndTwiceReadProducts) {
  auto fn = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    const Tensor y = x.mm(w) + b;     // no unit stride in x: copied for oneDNN
    const Tensor z = x.mm(w.relu());  // read twice: stays eager's
    return std::vector<Tensor>{y.relu(), z.relu() + z};
  };
  auto f = brasa::compile(fn);
  const Tensor big = randn({40, 60});
  const Tensor x = big.slice(0, 0, 40, 2).slice(1, 0, 60, 3);  // [20, 20], strides (120, 3)
  const Tensor w = randn({17, 20}).t(), b = randn({1, 17});
  f(x, w, b);
  const std::vector<Tensor> got = f(x, w, b), want = fn(x, w, b);
  expect_close(got[0], want[0], matmul(x.abs(), w.abs()) + b.abs());
  expect_close(got[1], want[1], matmul(x.abs(), w.relu()) * 2);
}

TEST_F(MatmulEpilogues, BiasAloneKeepsEagersProductBitwise) {
  auto fn = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    return linear(x, w, b).sigmoid();
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({31, 200}), w = randn({45, 200}), b = randn({45});
  f(x, w, b);
  EXPECT_TRUE(bitwise_equal(f(x, w, b), fn(x, w, b)));
  EXPECT_EQ(compile_stats().matmul_epilogues, 0);
}

TEST_F(MatmulEpilogues, BackwardOfLinearReluGivesEagersGradients) {
  auto loss_fn = [](const Tensor& x, const Tensor& w1, const Tensor& b1, const Tensor& w2,
                    const Tensor& b2) {
    const Tensor h = linear(x, w1, b1).relu();
    return (linear(h, w2, b2) + h.narrow(1, 0, 9) * 0.25).sum();
  };
  auto f = brasa::compile(loss_fn);
  auto leaf = [](const Tensor& t) { return t.detach().clone().requires_grad_(); };
  const Tensor x = randn({29, 11}), w1 = randn({15, 11}), b1 = randn({15}), w2 = randn({9, 15}),
               b2 = randn({9});
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> e{leaf(x), leaf(w1), leaf(b1), leaf(w2), leaf(b2)};
    std::vector<Tensor> c{leaf(x), leaf(w1), leaf(b1), leaf(w2), leaf(b2)};
    const Tensor le = loss_fn(e[0], e[1], e[2], e[3], e[4]);
    const Tensor lc = f(c[0], c[1], c[2], c[3], c[4]);
    le.backward();
    lc.backward();
    const double mag = 1e-4 * (1 + std::fabs(le.item<double>())) * 50;
    EXPECT_NEAR(lc.item<double>(), le.item<double>(), mag);
    for (size_t i = 0; i < e.size(); ++i) {
      const Tensor d = (c[i].grad() - e[i].grad()).abs().max();
      const double g = e[i].grad().abs().max().item<double>();
      EXPECT_LE(d.item<double>(), 1e-5 * (1 + g) * 20) << "grad " << i;
    }
  }
  EXPECT_GE(compile_stats().backward_graphs, 1);
  EXPECT_GE(compile_stats().matmul_epilogues, 1);
}

TEST_F(MatmulEpilogues, BiasAloneReadByLibraryCallsIsTaken) {
  // The bias add of a product read only through views by other library calls (the GPT's QKV
  // projection before attention) would run alone: the matmul takes it; a bias whose result a
  // pointwise op reads stays eager's product (BiasAloneKeepsEagersProductBitwise).
  auto fn = [](const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& w2) {
    const Tensor h = linear(x, w, b).view({-1, 5, 9});
    return mm(h.select(1, 2), w2);
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({31, 200}), w = randn({45, 200}), b = randn({45}), w2 = randn({9, 7});
  f(x, w, b, w2);
  const Tensor got = f(x, w, b, w2), want = fn(x, w, b, w2);
  expect_close(got, want, fn(x.abs(), w.abs(), b.abs(), w2.abs()));
  EXPECT_EQ(compile_stats().matmul_epilogues, 1);
}

TEST_F(MatmulEpilogues, ConvolutionReluIsOneOneDnnPrimitiveForwardAndBackward) {
  // Note [Conv epilogues]: conv + relu (with and without bias, strided and padded, grouped) as one
  // oneDNN convolution with a relu post-op; the convolution's sums are eager's, so the values are
  // eager's (a zero's sign aside), and the gradients follow.
  auto loss_fn = [](const Tensor& x, const Tensor& w1, const Tensor& b1, const Tensor& w2) {
    Tensor h = max_pool2d(conv2d(x, w1, b1, IntArrayRef{1, 1}, IntArrayRef{1, 1}).relu(), {2, 2});
    h = conv2d(h, w2, Tensor(), IntArrayRef{2, 2}, IntArrayRef{0, 0}, IntArrayRef{1, 1}, 2).relu();
    return (h * h).sum();
  };
  auto f = brasa::compile(loss_fn);
  auto leaf = [](const Tensor& t) { return t.detach().clone().requires_grad_(); };
  const Tensor x = randn({5, 3, 17, 13}), w1 = randn({8, 3, 3, 3}), b1 = randn({8}),
               w2 = randn({6, 4, 3, 3});
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> e{leaf(x), leaf(w1), leaf(b1), leaf(w2)};
    std::vector<Tensor> c{leaf(x), leaf(w1), leaf(b1), leaf(w2)};
    const Tensor le = loss_fn(e[0], e[1], e[2], e[3]);
    const Tensor lc = f(c[0], c[1], c[2], c[3]);
    EXPECT_TRUE(equal(lc, le)) << lc.item<double>() - le.item<double>();
    le.backward();
    lc.backward();
    for (size_t i = 0; i < e.size(); ++i)
      EXPECT_TRUE(equal(c[i].grad(), e[i].grad())) << "grad " << i;
  }
  EXPECT_EQ(compile_stats().matmul_epilogues, 2);
  EXPECT_EQ(compile_stats().backward_graphs, 1);
  // Forward only, no grad: the same values.
  auto g = brasa::compile([](const Tensor& x, const Tensor& w) { return conv2d(x, w).relu(); });
  NoGradGuard no_grad;
  g(x, w1);
  EXPECT_TRUE(equal(g(x, w1), conv2d(x, w1).relu()));
}

}  // namespace
}  // namespace brasa::compile_test
