// F::cross_entropy inside a compiled function (Note [Cross-entropy fast path]): captured as one
// op with no graph break, equal to eager forward and backward (ignored targets included), for
// every reduction; a new batch size runs no compiler; an out-of-range target still raises.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

namespace F = nn::functional;
using CompiledCrossEntropy = CompileTest;

Tensor targets(std::vector<int64_t> v) { return tensor(v).to(kLong); }

TEST_F(CompiledCrossEntropy, NoGraphBreakAndEagersValuesAndGradients) {
  for (const char* reduction : {"mean", "sum", "none"}) {
    reset_compile_stats();
    F::CrossEntropyFuncOptions o;
    if (std::string(reduction) == "sum") o.reduction(kSum);
    if (std::string(reduction) == "none") o.reduction(kNone);
    auto fn = [o](const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& t) {
      return F::cross_entropy((x.matmul(w) + b) * 0.5, t, o);
    };
    CompileOptions copts;
    copts.fullgraph = true;  // a graph break would throw
    auto f = compile(fn, copts);
    manual_seed(3);
    const Tensor x = randn({6, 8}), w0 = randn({8, 5}), b0 = randn({5});
    const Tensor t = targets({0, 4, -100, 2, 2, 1});
    for (int call = 0; call < 3; ++call) {
      Tensor w = w0.clone().requires_grad_(), b = b0.clone().requires_grad_();
      Tensor w2 = w0.clone().requires_grad_(), b2 = b0.clone().requires_grad_();
      Tensor got = f(x, w, b, t), want = fn(x, w2, b2, t);
      EXPECT_TRUE(bitwise_equal(got, want)) << reduction << " call " << call;
      Tensor g = randn_like(want);
      got.backward(g);
      want.backward(g);
      EXPECT_TRUE(allclose(w.grad(), w2.grad(), 1e-5, 1e-6)) << reduction << " call " << call;
      EXPECT_TRUE(allclose(b.grad(), b2.grad(), 1e-5, 1e-6)) << reduction << " call " << call;
    }
    const CompileStats s = compile_stats();
    EXPECT_EQ(s.graph_breaks, 0) << reduction;
    EXPECT_EQ(s.compiled_calls, 2) << reduction;
    EXPECT_EQ(s.backward_graphs, 1) << reduction;
  }
}

TEST_F(CompiledCrossEntropy, ForwardOnlyNewBatchSizesRunNoCompiler) {
  auto fn = [](const Tensor& x, const Tensor& t) {
    return F::cross_entropy((x * 2 + 1).tanh(), t);
  };
  auto f = compile(fn);
  NoGradGuard no_grad;
  for (int64_t n : {8, 8, 5, 13, 8}) {
    const Tensor x = randn({n, 7}), t = randint(0, 7, {n});
    EXPECT_TRUE(allclose(f(x, t), fn(x, t), 1e-6, 1e-7)) << n;
  }
  const CompileStats s = compile_stats();
  EXPECT_EQ(s.graph_breaks, 0);
  EXPECT_LE(s.compiler_runs, 1);
}

TEST_F(CompiledCrossEntropy, OutOfRangeTargetRaisesInCompiledCalls) {
  auto f = compile([](const Tensor& x, const Tensor& t) { return F::cross_entropy(x * 3, t); });
  const Tensor x = randn({3, 4});
  f(x, targets({0, 1, 2}));
  f(x, targets({3, 1, 2}));
  EXPECT_THROW(f(x, targets({0, 4, 2})), IndexError);
  EXPECT_THROW(f(x, targets({0, -1, 2})), IndexError);
}

}  // namespace
}  // namespace brasa::compile_test
