// In-place pointwise ops computed out of place inside fused kernels (Note [Functional in-place] in
// src/compile/in_place.cpp), pow with a literal exponent, and a per-row value expanded along the
// row inside a row kernel: compiled equals eager (bitwise where the arithmetic is eager's, within
// the reduction tolerance where a row sum is involved), and in-place writes that something
// observes later still happen in place.
#include "brasa/nn/functional/normalization.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using InPlaceFusion = CompileTest;

TEST_F(InPlaceFusion, InPlaceAddOnAFreshValueFusesBitwise) {
  auto fn = [](const Tensor& x, const Tensor& y) {
    Tensor t = x * 2.0;
    t.add_(y);
    t.mul_(0.75);
    return t.tanh() - y;
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({7, 33}), y = randn({33});
  f(x, y);
  EXPECT_TRUE(bitwise_equal(f(x, y), fn(x, y)));
  EXPECT_EQ(compile_stats().fused_kernels, 1);  // mul add_ mul_ tanh sub: one kernel
}

TEST_F(InPlaceFusion, InPlaceWriteSeenThroughAViewStaysInPlace) {
  auto fn = [](const Tensor& x, const Tensor& y) {
    Tensor t = x * 2.0;
    Tensor v = t.view({-1});
    t.add_(y);
    return std::vector<Tensor>{v * 3.0 + 1.0, t};  // v reads t's memory after the write
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({5, 6}), y = randn({5, 6});
  f(x, y);
  const std::vector<Tensor> got = f(x, y), want = fn(x, y);
  EXPECT_TRUE(bitwise_equal(got[0], want[0]));
  EXPECT_TRUE(bitwise_equal(got[1], want[1]));
}

TEST_F(InPlaceFusion, InPlaceWriteToAnOutputValueStaysInPlace) {
  auto fn = [](const Tensor& x) {
    Tensor t = x + 1.0;
    Tensor u = t * 2.0;
    t.sub_(x);  // t's first value is not an output, but u is read before the write: fine
    return std::vector<Tensor>{u, t.exp()};
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({4, 9});
  f(x);
  const std::vector<Tensor> got = f(x), want = fn(x);
  EXPECT_TRUE(bitwise_equal(got[0], want[0]));
  EXPECT_TRUE(bitwise_equal(got[1], want[1]));
}

TEST_F(InPlaceFusion, PowWithALiteralExponentIsEagersBitForBit) {
  auto fn = [](const Tensor& x, const Tensor& y) {
    return std::vector<Tensor>{(x * 1.5).pow(3.0) + y, (x.abs() + 0.25).pow(2.5) * y,
                               (y - 0.5).pow(-1.0) + 1.0};
  };
  auto f = brasa::compile(fn);
  for (const auto& shape : {std::vector<int64_t>{3, 17}, std::vector<int64_t>{1000}}) {
    const Tensor x = randn(shape), y = randn(shape);
    f(x, y);
    const std::vector<Tensor> got = f(x, y), want = fn(x, y);
    for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(bitwise_equal(got[i], want[i])) << i;
  }
  const Tensor d = randn({6, 5}, TensorOptions().dtype(kDouble));
  auto g = brasa::compile([](const Tensor& a) { return (a * 2.0).pow(3.0) - a; });
  g(d);
  EXPECT_TRUE(bitwise_equal(g(d), (d * 2.0).pow(3.0) - d));
}

TEST_F(InPlaceFusion, ExpandedRowSumInsideOneRowKernel) {
  auto fn = [](const Tensor& x) {
    const Tensor s = x.sum(-1, true);
    return x * 2.0 + s.expand(x.sizes()) / 8.0;
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({9, 4, 37});
  f(x);
  const Tensor got = f(x), want = fn(x);
  const Tensor scale = x.abs().sum(-1, true) / 8.0 + x.abs() * 2.0;
  EXPECT_TRUE(((got - want).abs() <= scale * 1e-5 + 1e-30).all().item<bool>());
  EXPECT_EQ(compile_stats().fused_kernels, 1);
  EXPECT_EQ(compile_stats().row_kernels, 1);
}

// A pre-LayerNorm residual block: the backward sums x's gradient in place (residual and
// LayerNorm), and LayerNorm's backward expands per-row sums; gradients agree with eager.
TEST_F(InPlaceFusion, ResidualLayerNormBackwardAccumulatesInPlace) {
  namespace F = nn::functional;
  auto loss_fn = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    const Tensor h = x + F::layer_norm(x, F::LayerNormFuncOptions({24}).weight(w).bias(b));
    const Tensor o = h + F::layer_norm(h, F::LayerNormFuncOptions({24}).weight(w).bias(b));
    return (o * o).sum();
  };
  auto f = brasa::compile(loss_fn);
  auto leaf = [](const Tensor& t) { return t.detach().clone().requires_grad_(); };
  const Tensor x = randn({3, 10, 24}), w = randn({24}), b = randn({24});
  for (int call = 0; call < 2; ++call) {
    std::vector<Tensor> e{leaf(x), leaf(w), leaf(b)}, c{leaf(x), leaf(w), leaf(b)};
    const Tensor le = loss_fn(e[0], e[1], e[2]), lc = f(c[0], c[1], c[2]);
    le.backward();
    lc.backward();
    EXPECT_NEAR(lc.item<double>(), le.item<double>(), 1e-5 * le.item<double>());
    for (size_t i = 0; i < e.size(); ++i)
      EXPECT_TRUE(allclose(c[i].grad(), e[i].grad(), 1e-4, 1e-4)) << "grad " << i;
  }
  EXPECT_EQ(compile_stats().backward_graphs, 1);
}

}  // namespace
}  // namespace brasa::compile_test
