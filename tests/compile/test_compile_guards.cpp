// Guards: a new batch size reuses the compiled kernels (no compiler run), failing guards are
// reported in words, and the recompile limit falls back to eager with one warning.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using Guards = CompileTest;

Tensor mlp_like(const Tensor& x, const Tensor& w) {
  return ((x.matmul(w) * 0.5 + 1.0).relu() - 0.25) * 2.0;
}

TEST_F(Guards, NewBatchSizesReuseTheSharedObject) {
  auto f = compile(mlp_like);
  Tensor w = randn({8, 16});
  for (int64_t batch : {32, 17, 8, 33, 64, 146, 149}) {
    Tensor x = randn({batch, 8});
    f(x, w);
    Tensor y = f(x, w);
    EXPECT_TRUE(bitwise_equal(y, mlp_like(x, w))) << "batch " << batch;
  }
  CompileStats s = compile_stats();
  EXPECT_LE(s.compiler_runs, 1);  // 0 when an earlier test built the same kernels
  EXPECT_EQ(s.recompiles, 1);     // 32 -> 17: the dim became dynamic, no more traces after
  EXPECT_EQ(s.traces, 2);
  ASSERT_EQ(s.recompile_reasons.size(), 1u);
  EXPECT_EQ(s.recompile_reasons[0], "input 0 dim 0: expected 32, got 17");

  // A dynamic dim accepts sizes of 2 and more: size 1 broadcasts differently, so it is traced.
  Tensor x1 = randn({1, 8});
  f(x1, w);
  EXPECT_TRUE(bitwise_equal(f(x1, w), mlp_like(x1, w)));
  s = compile_stats();
  EXPECT_EQ(s.traces, 3);
  EXPECT_EQ(s.recompile_reasons.back(),
            "input 0 dim 0: expected a dynamic size of at least 2, got 1");
}

TEST_F(Guards, MarkDynamicSkipsTheSpecialisedGraph) {
  auto f = compile(mlp_like);
  Tensor w = randn({8, 16});
  Tensor x = randn({32, 8});
  mark_dynamic(x, 0, 2, 100);
  f(x, w);
  for (int64_t batch : {17, 99}) {
    Tensor y = randn({batch, 8});
    EXPECT_TRUE(bitwise_equal(f(y, w), mlp_like(y, w))) << batch;
  }
  EXPECT_EQ(compile_stats().traces, 1);
  Tensor big = randn({101, 8});
  EXPECT_TRUE(bitwise_equal(f(big, w), mlp_like(big, w)));
  ASSERT_EQ(compile_stats().recompile_reasons.size(), 1u);
  EXPECT_EQ(compile_stats().recompile_reasons[0],
            "input 0 dim 0: expected a dynamic size in [2, 100], got 101");
  EXPECT_THROW(mark_dynamic(x, 0, 40, 50), ValueError);
}

TEST_F(Guards, StaticPolicyRetracesButNeverRecompilesTheKernels) {
  CompileOptions o;
  o.dynamic = Dynamic::Static;
  auto f = compile(mlp_like, o);
  Tensor w = randn({8, 16});
  for (int64_t batch : {5, 6, 7}) {
    Tensor x = randn({batch, 8});
    f(x, w);
    EXPECT_TRUE(bitwise_equal(f(x, w), mlp_like(x, w)));
  }
  CompileStats s = compile_stats();
  EXPECT_EQ(s.traces, 3);
  EXPECT_LE(s.compiler_runs, 1);
  EXPECT_GE(s.memory_cache_hits, 2);
}

TEST_F(Guards, FailingGuardsAreDescribed) {
  auto f = compile([](const Tensor& x) { return x * 2 + 1; });
  f(ones({4, 3}));
  f(ones({4, 3}, kDouble));
  f(ones({3, 4}).t());
  {
    NoGradGuard no_grad;
    f(ones({4, 3}));
  }
  f(ones({2, 4, 3}));
  CompileStats s = compile_stats();
  ASSERT_EQ(s.recompile_reasons.size(), 4u);
  EXPECT_EQ(s.recompile_reasons[0], "input 0 dtype: expected Float, got Double");
  EXPECT_EQ(s.recompile_reasons[1], "input 0: expected a contiguous tensor");
  EXPECT_EQ(s.recompile_reasons[2], "grad mode: expected enabled, got disabled");
  EXPECT_EQ(s.recompile_reasons[3], "input 0 rank: expected 2, got 3");
}

TEST_F(Guards, RecompileLimitRunsNewSignaturesEagerlyWithOneWarning) {
  CompileOptions o;
  o.recompile_limit = 2;
  o.dynamic = Dynamic::Static;
  o.name = "limited";
  auto fn = [](const Tensor& x) { return x - 3; };
  auto f = compile(fn, o);
  for (int64_t n : {2, 3, 4, 5, 6}) EXPECT_TRUE(bitwise_equal(f(ones({n})), fn(ones({n}))));
  EXPECT_EQ(compile_stats().traces, 2);
  EXPECT_EQ(compile_stats().eager_calls, 3);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("limited reached its recompile limit (2 graphs)"), std::string::npos)
      << warnings_[0];
  EXPECT_NE(warnings_[0].find("input 0 dim 0: expected 2, got 4"), std::string::npos);
}

TEST_F(Guards, RequiresGradRunsTheOpsOwnAutograd) {
  auto fn = [](const Tensor& x, const Tensor& w) { return ((x * w).tanh() + 1).sum(); };
  auto f = compile(fn);
  Tensor x = randn({5, 3});
  Tensor w1 = randn({5, 3}).requires_grad_(), w2 = w1.detach().clone().requires_grad_();
  f(x, w1).backward();
  w1.mutable_grad().reset();
  f(x, w1).backward();  // replayed
  fn(x, w2).backward();
  EXPECT_TRUE(bitwise_equal(w1.grad(), w2.grad()));
}

}  // namespace
}  // namespace brasa::compile_test
