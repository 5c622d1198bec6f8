// Column reductions (Note [Column reductions] in src/compile/fusion.cpp): a sum or mean over every
// dim but the last of a pointwise group's value is computed in the group's kernel, forward (odd
// sizes, keepdim or not, the multi-threaded path) and as the bias gradient of a compiled backward;
// results agree with eager within 1e-5 of the sum of absolute values. Several reductions share one
// kernel, a reduction of an input starts one, and pointwise ops after a reduction stay in it.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using ColumnReductions = CompileTest;

void expect_close(const Tensor& got, const Tensor& want, const Tensor& scale) {
  ASSERT_EQ(got.sizes(), want.sizes());
  const Tensor diff = (got.to(kDouble) - want.to(kDouble)).abs();
  EXPECT_TRUE((diff <= scale.to(kDouble) * 1e-5 + 1e-30).all().item<bool>())
      << "max diff " << diff.max().item<double>();
}

TEST_F(ColumnReductions, SumAndMeanOverLeadingDimsOfAPointwiseChain) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    const Tensor y = (x * w + 1.0).relu();
    return std::vector<Tensor>{y, y.sum({0, 1}), (x * 0.5 - w).mean({0, 1}, true)};
  };
  auto f = brasa::compile(fn);
  for (auto [b, t, c] : {std::tuple<int64_t, int64_t, int64_t>{5, 7, 13}, {3, 300, 257}}) {
    const Tensor x = randn({b, t, c}), w = randn({c});
    f(x, w);
    const std::vector<Tensor> got = f(x, w), want = fn(x, w);
    EXPECT_TRUE(bitwise_equal(got[0], want[0]));
    expect_close(got[1], want[1], (x * w + 1.0).relu().sum({0, 1}));
    expect_close(got[2], want[2], (x * 0.5 - w).abs().mean({0, 1}, true));
  }
  EXPECT_GE(compile_stats().column_kernels, 2);
}

TEST_F(ColumnReductions, TwoDimSumOverDimZeroAndNewSizes) {
  auto fn = [](const Tensor& x, const Tensor& y) { return (x * y).tanh().sum(0); };
  auto f = brasa::compile(fn);
  int64_t runs = -1;
  for (int64_t m : {9, 33, 4}) {
    const Tensor x = randn({m, 19}), y = randn({m, 19});
    f(x, y);
    expect_close(f(x, y), fn(x, y), (x * y).tanh().abs().sum(0));
    if (runs < 0) runs = compile_stats().compiler_runs;
  }
  EXPECT_EQ(compile_stats().compiler_runs, runs);
  EXPECT_GE(compile_stats().column_kernels, 1);
}

TEST_F(ColumnReductions, SeveralReductionsOfAnInputAndOfValuesShareOneKernel) {
  // LayerNorm's backward: the bias gradient sums the incoming gradient g (an input of the kernel),
  // the weight gradient sums g * xhat, and g * w goes on to the input's gradient.
  auto fn = [](const Tensor& g, const Tensor& xhat, const Tensor& w) {
    const Tensor bias = g.sum({0, 1});
    const Tensor weight = (g * xhat).sum({0, 1});
    const Tensor gw = g * w;
    const Tensor mean = (gw * 0.5).mean({0, 1}, true);
    return std::vector<Tensor>{bias, weight, gw * 2.0 - 1.0, mean};
  };
  auto f = brasa::compile(fn);
  for (auto [b, t, c] : {std::tuple<int64_t, int64_t, int64_t>{5, 7, 13}, {4, 300, 129}}) {
    const Tensor g = randn({b, t, c}),
                 xhat = randn({b, t, c}).transpose(0, 1).contiguous().transpose(
                     0, 1),  // a strided operand
        w = randn({c});
    f(g, xhat, w);
    const std::vector<Tensor> got = f(g, xhat, w), want = fn(g, xhat, w);
    expect_close(got[0], want[0], g.abs().sum({0, 1}));
    expect_close(got[1], want[1], (g * xhat).abs().sum({0, 1}));
    EXPECT_TRUE(bitwise_equal(got[2], want[2]));
    expect_close(got[3], want[3], (g * w * 0.5).abs().mean({0, 1}, true));
  }
  // One kernel: sum mul sum mul mul mean mul sub.
  const CompileStats s = compile_stats();
  EXPECT_EQ(s.fused_kernels, s.graphs);
  EXPECT_EQ(s.column_kernels, s.graphs);
}

TEST_F(ColumnReductions, PointwiseOpsBeforeARowReductionGoToTheRowKernel) {
  // LayerNorm's backward again, with its per-row sum: the column kernel stops after its last
  // reduction, and g * w (and what follows) is computed in the row kernel, not stored.
  auto fn = [](const Tensor& g, const Tensor& xhat, const Tensor& w) {
    const Tensor bias = g.sum({0, 1});
    const Tensor weight = (g * xhat).sum({0, 1});
    const Tensor gw = g * w;
    const Tensor r = (gw * xhat).sum(-1, true);
    return std::vector<Tensor>{bias, weight, gw - xhat * r};
  };
  auto f = brasa::compile(fn);
  const Tensor g = randn({6, 9, 33}), xhat = randn({6, 9, 33}), w = randn({33});
  f(g, xhat, w);
  const std::vector<Tensor> got = f(g, xhat, w), want = fn(g, xhat, w);
  expect_close(got[0], want[0], g.abs().sum({0, 1}));
  expect_close(got[1], want[1], (g * xhat).abs().sum({0, 1}));
  expect_close(got[2], want[2], (g * w).abs() + xhat.abs() * (g * w * xhat).abs().sum(-1, true));
  const CompileStats s = compile_stats();
  EXPECT_EQ(s.fused_kernels, 2);  // sum mul sum | mul mul sum mul sub
  EXPECT_EQ(s.column_kernels, 1);
  EXPECT_EQ(s.row_kernels, 1);
}

TEST_F(ColumnReductions, EmptyLeadingDimsGiveEagersZerosAndNaNs) {
  auto fn = [](const Tensor& x) {
    return std::vector<Tensor>{(x * 2.0).sum(0), (x + 1.0).mean(0, true)};
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({0, 5});
  f(x);
  const std::vector<Tensor> got = f(x), want = fn(x);
  EXPECT_TRUE(bitwise_equal(got[0], want[0]));
  EXPECT_TRUE(bitwise_equal(got[1], want[1]));
}

TEST_F(ColumnReductions, BiasGradientOfACompiledBackward) {
  auto loss_fn = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    return ((x.matmul(w) + b) * 0.5).tanh().sum();
  };
  auto f = brasa::compile(loss_fn);
  auto leaf = [](const Tensor& t) { return t.detach().clone().requires_grad_(); };
  const Tensor x = randn({6, 11, 8}), w = randn({8, 17}), b = randn({17});
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> e{leaf(x), leaf(w), leaf(b)}, c{leaf(x), leaf(w), leaf(b)};
    loss_fn(e[0], e[1], e[2]).backward();
    f(c[0], c[1], c[2]).backward();
    for (size_t i = 0; i < e.size(); ++i) {
      const double d = (c[i].grad() - e[i].grad()).abs().max().item<double>();
      EXPECT_LE(d, 1e-5 * (1 + e[i].grad().abs().max().item<double>()) * 66) << "grad " << i;
    }
  }
  EXPECT_GE(compile_stats().backward_graphs, 1);
  EXPECT_GE(compile_stats().column_kernels, 1);
}

}  // namespace
}  // namespace brasa::compile_test
