// Compiled backward (Note [Joint capture], [Partition], [Compiled backward] in src/compile): random
// differentiable chains over broadcast, promoted and non-contiguous inputs give eager's gradients
// bit for bit; row kernels' gradients agree within 1e-5; the backward keeps no more forward values
// than eager's nodes; create_graph and hooks on intermediates fall back to eager; a second backward
// and an input modified in place fail as in eager.
#include <random>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using CompiledBackward = CompileTest;

Tensor step(const Tensor& y, int op, const Tensor& other, double lit) {
  switch (op) {
    case 0: return y + other;
    case 1: return y - lit;
    case 2: return y * other;
    case 3: return y / (other.abs() + 1);
    case 4: return y.neg();
    case 5: return y.relu() + y * 0.125;
    case 6: return (y.abs() + 0.5).sqrt();
    case 7: return y.unsqueeze(0).squeeze(0) * lit;  // views inside the chain
    case 8: return (y * 0.25).exp();
    case 9: return y.tanh();
    case 10: return y.sigmoid();
    default: return (y.abs() + 1).log();
  }
}

struct Chains {
  std::vector<std::vector<std::pair<int, int>>> ops;  // per chain: (op, operand)
  std::vector<int> start;
  std::vector<Tensor> operator()(const std::vector<Tensor>& in) const {
    const double lits[] = {0.5, -1.25, 3.0, 1.0001, 7.0};
    std::vector<Tensor> out;
    for (size_t c = 0; c < ops.size(); ++c) {
      Tensor y = in[start[c]];
      for (auto [op, k] : ops[c]) y = step(y, op, in[k % in.size()], lits[k % 5]);
      out.push_back(y);
    }
    return out;
  }
};

std::vector<Tensor> leaves(const std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  for (const Tensor& t : in) out.push_back(t.detach().clone().requires_grad_());
  return out;
}

TEST_F(CompiledBackward, RandomChainsGiveEagersGradientsBitwise) {
  std::mt19937 rng(20261202);
  Chains chains;
  for (int c = 0; c < 12; ++c) {
    chains.start.push_back(static_cast<int>(rng() % 4));
    chains.ops.emplace_back();
    for (int i = 0, n = 3 + static_cast<int>(rng() % 6); i < n; ++i)
      chains.ops.back().emplace_back(static_cast<int>(rng() % 12), static_cast<int>(rng() % 4));
  }
  manual_seed(11);
  const std::vector<Tensor> base = {
      randn({6, 5}),           // contiguous
      randn({5}),              // broadcast: its gradient is summed over rows
      randn({6, 1}, kDouble),  // broadcast, promotes to double
      randn({5, 6}).t(),       // non-contiguous
  };
  auto fn = [&chains](const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& d) {
    return chains({a, b, c, d});
  };
  auto f = compile(fn);
  for (int call = 0; call < 3; ++call) {  // trace, then twice compiled
    std::vector<Tensor> x = leaves(base), y = leaves(base);
    for (size_t i = 0; i < x.size(); ++i) {  // keep d non-contiguous
      if (i != 3) continue;
      x[i] = base[i].t().contiguous().t().detach().requires_grad_();
      y[i] = base[i].t().contiguous().t().detach().requires_grad_();
    }
    std::vector<Tensor> got = f(x[0], x[1], x[2], x[3]), want = fn(y[0], y[1], y[2], y[3]);
    std::vector<Tensor> grads;
    for (const Tensor& w : want) grads.push_back(randn_like(w));
    autograd::backward(got, grads);
    autograd::backward(want, grads);
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(bitwise_equal(got[i], want[i])) << "call " << call << " chain " << i;
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_TRUE(x[i].grad().defined()) << i;
      EXPECT_TRUE(bitwise_equal(x[i].grad(), y[i].grad()))
          << "call " << call << " input " << i << ": " << max_ulps(x[i].grad(), y[i].grad())
          << " ulp";
    }
  }
  CompileStats s = compile_stats();
  EXPECT_EQ(s.compiled_calls, 2);
  EXPECT_EQ(s.backward_graphs, 1);
  EXPECT_LE(s.saved_for_backward, s.saved_by_eager);
}

TEST_F(CompiledBackward, RowKernelGradientsWithinTolerance) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    Tensor xc = x - x.mean({-1}, true);
    Tensor ln = xc * ((xc * xc).mean({-1}, true) + 1e-5).rsqrt() * w;
    return std::vector<Tensor>{(ln * 2).softmax(-1), ln.log_softmax(-1).sum({-1})};
  };
  auto f = compile(fn);
  const Tensor x0 = randn({16, 40}), w0 = randn({40});
  for (int call = 0; call < 2; ++call) {
    auto a = leaves({x0, w0}), b = leaves({x0, w0});
    std::vector<Tensor> got = f(a[0], a[1]), want = fn(b[0], b[1]);
    std::vector<Tensor> g = {randn_like(want[0]), randn_like(want[1])};
    autograd::backward(got, g);
    autograd::backward(want, g);
    for (size_t i = 0; i < 2; ++i)
      EXPECT_TRUE(allclose(a[i].grad(), b[i].grad(), 1e-5, 1e-5))
          << "input " << i << ": " << (a[i].grad() - b[i].grad()).abs().max().item<double>();
  }
  EXPECT_EQ(compile_stats().backward_graphs, 1);
  EXPECT_GE(compile_stats().row_kernels, 1);
}

TEST_F(CompiledBackward, PartitionRecomputesPointwiseInsteadOfSaving) {
  auto pointwise = [](const Tensor& x, const Tensor& w) {
    return ((x * w).tanh() * 2 + 1).sigmoid() * x;
  };
  auto f = compile(pointwise);
  Tensor x = randn({32, 8}).requires_grad_(), w = randn({8}).requires_grad_();
  f(x, w).sum().backward();
  f(x, w).sum().backward();
  EXPECT_EQ(compile_stats().saved_for_backward, 0);  // everything is recomputed from x and w
  EXPECT_GE(compile_stats().saved_by_eager, 2);      // eager keeps tanh's and sigmoid's results

  reset_compile_stats();
  auto mlp = [](const Tensor& x, const Tensor& w1, const Tensor& w2) {
    return ((x.matmul(w1) * 0.5).relu().matmul(w2) + 1).tanh();
  };
  auto g = compile(mlp);
  Tensor w1 = randn({8, 16}).requires_grad_(), w2 = randn({16, 4}).requires_grad_();
  g(x, w1, w2).sum().backward();
  g(x, w1, w2).sum().backward();
  CompileStats s = compile_stats();
  EXPECT_EQ(s.backward_graphs, 1);
  EXPECT_LE(s.saved_for_backward, s.saved_by_eager);
  EXPECT_GE(s.saved_for_backward, 1);  // the matmul results the relu and tanh read
}

TEST_F(CompiledBackward, CreateGraphFallsBackToEagerHigherOrderGradients) {
  auto fn = [](const Tensor& x) { return (x * x * x + x.sin()).sum(); };
  auto f = compile(fn);
  Tensor x0 = randn({7});
  f(x0.clone().requires_grad_());  // traced
  Tensor x = x0.clone().requires_grad_(), y = x0.clone().requires_grad_();
  Tensor gx = autograd::grad({f(x)}, {x}, {}, true, /*create_graph=*/true)[0];
  Tensor gy = autograd::grad({fn(y)}, {y}, {}, true, /*create_graph=*/true)[0];
  EXPECT_TRUE(bitwise_equal(gx, gy));
  Tensor ggx = autograd::grad({gx.sum()}, {x})[0];
  Tensor ggy = autograd::grad({gy.sum()}, {y})[0];
  EXPECT_TRUE(bitwise_equal(ggx, ggy));
  // Later calls replay the graph op by op: eager's autograd, higher orders included.
  Tensor z = x0.clone().requires_grad_();
  Tensor gz = autograd::grad({f(z)}, {z}, {}, true, true)[0];
  EXPECT_TRUE(bitwise_equal(autograd::grad({gz.sum()}, {z})[0], ggy));
}

TEST_F(CompiledBackward, HookOnAnIntermediateRunsTheFunctionEagerly) {
  int calls = 0;
  auto fn = [&calls](const Tensor& x) {
    Tensor h = x * 3;
    h.register_hook([&calls](const Tensor& g) {
      ++calls;
      return g * 2;
    });
    return (h.exp() * 0.5).sum();
  };
  auto f = compile(fn);
  Tensor x0 = randn({5});
  for (int i = 0; i < 3; ++i) {
    Tensor x = x0.clone().requires_grad_(), y = x0.clone().requires_grad_();
    f(x).backward();
    fn(y).backward();
    EXPECT_TRUE(bitwise_equal(x.grad(), y.grad()));
  }
  EXPECT_EQ(calls, 6);  // once per backward: the stand-in backward of the trace never ran it
  EXPECT_EQ(compile_stats().backward_graphs, 0);
  EXPECT_EQ(compile_stats().compiled_calls, 0);
}

TEST_F(CompiledBackward, SecondBackwardAndInplaceModifiedInputFailAsInEager) {
  auto fn = [](const Tensor& x, const Tensor& w) { return (x * w).exp().sum(); };
  auto f = compile(fn);
  Tensor x = randn({4}), w = randn({4}).requires_grad_();
  f(x, w);
  Tensor loss = f(x, w);
  loss.backward();
  EXPECT_THROW(loss.backward(), ValueError);
  Tensor again = f(x, w);
  {
    NoGradGuard no_grad;
    x.add_(1);  // x is kept for the backward (it is not saved by the forward, but read)
  }
  EXPECT_THROW(again.backward(), ValueError);
  Tensor retained = f(x, w);
  w.mutable_grad().reset();
  retained.backward({}, /*retain_graph=*/true);
  Tensor first = w.grad().clone();
  retained.backward();
  EXPECT_TRUE(bitwise_equal(w.grad(), first * 2));
}

TEST_F(CompiledBackward, DynamicSizesStaySpecialisedForTheBackward) {
  // mean's backward divides by N and expands to the traced sizes: with Dynamic::All the compiled
  // backward must not serve another size.
  CompileOptions o;
  o.dynamic = Dynamic::All;
  auto fn = [](const Tensor& x) { return (x * 2).mean({-1}, true).exp(); };
  auto f = compile(fn, o);
  for (int64_t n : {8, 8, 12, 12, 20}) {
    Tensor x = randn({3, n}).requires_grad_(), y = x.detach().clone().requires_grad_();
    f(x).sum().backward();
    fn(y).sum().backward();
    EXPECT_TRUE(allclose(x.grad(), y.grad(), 1e-6, 1e-7)) << n;
  }
  EXPECT_EQ(compile_stats().traces, 3);
}

TEST_F(CompiledBackward, LargeViewsOfOneBaseDoNotBreakTheBackward) {
  // The main job's MLP on an input that needs no grad: its backward makes several transposed
  // views of the same large tensors, whose dead TensorImpls' addresses come back with other sizes
  // (Note [Tensor identity]); that is no tensor resized outside the dispatcher.
  auto fn = [](const Tensor& x, const Tensor& y, const Tensor& w1, const Tensor& b1,
               const Tensor& w2, const Tensor& b2) {
    const Tensor h = linear(x.flatten(1), w1, b1).relu();
    return nn::functional::cross_entropy(linear(h, w2, b2), y);
  };
  auto f = compile(fn);
  const Tensor x = randn({64, 1, 28, 28}), y = randint(0, 10, {64});
  std::vector<Tensor> p = leaves(
      {randn({512, 784}) * 0.03, randn({512}) * 0.01, randn({10, 512}) * 0.04, randn({10}) * 0.01});
  std::vector<Tensor> q = leaves(p);
  for (int call = 0; call < 2; ++call) {
    for (Tensor& t : p) t.mutable_grad().reset();
    for (Tensor& t : q) t.mutable_grad().reset();
    f(x, y, p[0], p[1], p[2], p[3]).backward();
    fn(x, y, q[0], q[1], q[2], q[3]).backward();
    for (size_t i = 0; i < p.size(); ++i)
      EXPECT_TRUE(allclose(p[i].grad(), q[i].grad(), 1e-5, 1e-6)) << i;
  }
  const CompileStats s = compile_stats();
  EXPECT_EQ(s.backward_graphs, 1);
  EXPECT_EQ(s.graph_breaks, 0);
  EXPECT_EQ(s.eager_calls, 0);
}

}  // namespace
}  // namespace brasa::compile_test
