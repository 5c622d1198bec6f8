// Row kernels (Note [Row fusion] in src/compile/row_fusion.cpp): pointwise producers fused with
// the reductions over the last dim that follow them — layer_norm and rms_norm written as
// compositions (and brasa's own functional forms, which are compositions), softmax and
// log_softmax after a GELU, sum / mean / amax / var with and without keepdim — on contiguous,
// transposed and broadcast inputs: within 1e-5 relative of eager, with one row kernel each.
#include <limits>

#include "brasa/nn/functional/normalization.h"
#include "brasa/profiler/profiler.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using RowFusion = CompileTest;
namespace F = brasa::nn::functional;

/// Compiles fn, runs it on each argument list twice (trace, then compiled) and compares every
/// output with eager's within 1e-5 relative (and 1e-5 absolute near zero); `row_kernels`: per
/// graph.
template <typename Fn>
void expect_close(Fn fn, const std::vector<std::vector<Tensor>>& cases, int64_t row_kernels) {
  auto f = compile(fn);
  for (const auto& args : cases) {
    std::vector<Tensor> want = fn(args[0], args[1]);
    f(args[0], args[1]);
    std::vector<Tensor> got = f(args[0], args[1]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].sizes(), want[i].sizes()) << "output " << i;
      EXPECT_TRUE(allclose(got[i], want[i], 1e-5, 1e-5))
          << "output " << i << ": max difference " << (got[i] - want[i]).abs().max().item<double>();
    }
  }
  // Each case may be a graph of its own (the layouts differ); each graph has its row kernels.
  EXPECT_EQ(compile_stats().row_kernels, row_kernels * compile_stats().graphs);
  EXPECT_GE(compile_stats().compiled_calls, static_cast<int64_t>(cases.size()));
}

std::vector<std::vector<Tensor>> inputs(int64_t rows, int64_t n) {
  return {{randn({rows, n}) * 3 + 1, randn({n})},
          {randn({n, rows}).t() * 3 + 1, randn({n})},               // transposed
          {randn({2, rows / 2, n}).select(1, 0) * 2, randn({n})}};  // strided rows
}

TEST_F(RowFusion, LayerNormComposition) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor mean = x.mean({-1}, true);
    Tensor xc = x - mean;
    Tensor var = (xc * xc).mean({-1}, true);
    Tensor y = xc * (var + 1e-5).rsqrt() * w + 0.5;
    return std::vector<Tensor>{y};
  };
  expect_close(fn, inputs(64, 300), 1);
}

TEST_F(RowFusion, FunctionalLayerNormAndRmsNorm) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor a = F::layer_norm(x, F::LayerNormFuncOptions({x.size(-1)}).weight(w).bias(w * 0.5));
    Tensor b = F::rms_norm(x.relu(), F::RMSNormFuncOptions({x.size(-1)}).weight(w).eps(1e-6));
    return std::vector<Tensor>{a, b};
  };
  // One row kernel for both: the weight's views between them no longer end the run.
  expect_close(fn, inputs(32, 257), 1);
}

TEST_F(RowFusion, RmsNormComposition) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor y = x * 1.5;
    return std::vector<Tensor>{y * ((y * y).mean({-1}, true) + 1e-6).rsqrt() * w};
  };
  expect_close(fn, inputs(48, 128), 1);
}

TEST_F(RowFusion, SoftmaxAndLogSoftmaxAfterGelu) {
  auto fn = [](const Tensor& x, const Tensor& b) {
    Tensor z = x + b;
    Tensor g = z * ((z * M_SQRT1_2).erf() + 1) * 0.5;  // GELU (erf form)
    return std::vector<Tensor>{g.softmax(-1), (g * 0.25).log_softmax(-1), g};
  };
  expect_close(fn, inputs(40, 333), 1);  // both reductions in one kernel
}

TEST_F(RowFusion, SumMeanAmaxVarKeepdimOrNot) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor y = (x * w).tanh() + 0.25;
    return std::vector<Tensor>{y.sum({-1}), y.mean({-1}, true), y.amax({-1}), y.var({-1}, 1, false),
                               (x - w).amax({1}, true)};
  };
  expect_close(fn, inputs(30, 190), 1);  // all five in one kernel
}

TEST_F(RowFusion, AmaxAndSoftmaxPropagateNaNAndInfinity) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor y = x * w;
    return std::vector<Tensor>{y.amax({-1}), y.softmax(-1)};
  };
  auto f = compile(fn);
  Tensor x = randn({4, 20}), w = ones({20});
  x.index_put_({1, 3}, std::numeric_limits<double>::quiet_NaN());
  x.index_put_({2}, -std::numeric_limits<double>::infinity());
  f(x, w);
  std::vector<Tensor> got = f(x, w), want = fn(x, w);
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(allclose(got[i], want[i], 1e-5, 1e-5, /*equal_nan=*/true)) << i;
  EXPECT_EQ(compile_stats().row_kernels, 1);
}

TEST_F(RowFusion, NewRowLengthsReuseTheKernel) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    return std::vector<Tensor>{((x * w).softmax(-1) + 1).log().sum({-1}, true)};
  };
  auto f = compile(fn);
  for (int64_t n : {64, 65, 17, 1000}) {
    Tensor x = randn({9, n}), w = randn({n});
    f(x, w);
    EXPECT_TRUE(allclose(f(x, w)[0], fn(x, w)[0], 1e-5, 1e-5)) << n;
  }
  EXPECT_LE(compile_stats().compiler_runs, 1);
}

TEST_F(RowFusion, DoubleRowsMatch) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor xc = x - x.mean({-1}, true);
    return std::vector<Tensor>{(xc * (x.var({-1}, 0, true) + 1e-5).rsqrt() * w).softmax(-1)};
  };
  expect_close(fn, {{randn({16, 77}, kDouble), randn({77}, kDouble)}}, 1);
}

TEST_F(RowFusion, ViewsOfParametersLeaveTheAffineOpsInTheRowKernel) {
  // nn's LayerNorm views its weight and bias (`weight.view({C})`) between the normalisation and
  // the affine ops: those views run before the kernel, and mul and add join it (Note [Fusion]).
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor xc = x - x.mean({-1}, true);
    Tensor y = xc * ((xc * xc).mean({-1}, true) + 1e-5).rsqrt();
    y = y * w.view({w.size(0)});
    return std::vector<Tensor>{y + w.view({1, w.size(0)}).view({w.size(0)}), y};
  };
  expect_close(fn, inputs(64, 300), 1);
  auto f = compile(fn);
  const Tensor x = randn({64, 300}), w = randn({300});
  f(x, w);
  profiler::Profiler p;
  p.start();
  f(x, w);
  p.stop();
  for (const profiler::KeyAverage& k : p.key_averages())
    EXPECT_TRUE(k.name != "mul" && k.name != "add" && k.name != "sub") << k.name << " ran eagerly";
}

}  // namespace
}  // namespace brasa::compile_test
