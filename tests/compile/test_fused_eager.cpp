// Fused eager (Note [Fused eager] in src/compile/fused_eager.cpp): pointwise chains deferred and
// fused in plain eager code give eager's results, and every observation computes them first.
#include <sstream>

#include "brasa/core/empty.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using FusedEager = CompileTest;

/// `fn` run eagerly and under fused eager: bitwise the same values, sizes and strides.
template <typename F>
void expect_same(F fn) {
  Tensor eager = fn();
  Tensor fused;
  {
    FusedEagerGuard on;
    fused = fn();
  }
  EXPECT_TRUE(bitwise_equal(eager, fused));
  EXPECT_EQ(eager.strides(), fused.strides());
}

TEST_F(FusedEager, ChainOfTwentyOpsIsOneKernelAndBitwiseEager) {
  Tensor x = randn({1000});
  auto chain = [&] {
    Tensor y = x;
    for (int i = 0; i < 10; ++i) y = y * 1.0001 + 0.5;
    return y;
  };
  expect_same(chain);
  EXPECT_EQ(compile_stats().fused_eager_ops, 20);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 1);  // the guard's end
  EXPECT_EQ(compile_stats().fused_kernels, 1);
  expect_same(chain);  // planned once: no new kernel
  EXPECT_EQ(compile_stats().fused_kernels, 1);
  EXPECT_LE(compile_stats().compiler_runs, 1);
}

TEST_F(FusedEager, BroadcastPromotionNonContiguousAndTranscendentals) {
  Tensor a = randn({4, 1, 5});
  Tensor b = randn({3, 1}, kDouble);
  Tensor i = randint(-3, 4, {5}, kInt);
  Tensor t = randn({5, 3}).t();  // non-contiguous
  expect_same([&] { return (a + b) * i - 0.25; });
  expect_same([&] { return (t * 2.0 + 1.0).relu() / 3.0; });
  expect_same([&] { return (a * i).abs().sqrt() + b; });
  Tensor eager = ((a * 0.5).exp() + t.sum()).tanh();
  Tensor fused;
  {
    FusedEagerGuard on;
    fused = ((a * 0.5).exp() + t.sum()).tanh();
  }
  EXPECT_LE(max_ulps(eager, fused), 2);
}

TEST_F(FusedEager, InPlaceOpsAndViews) {
  Tensor x = randn({6, 4});
  expect_same([&] {
    Tensor y = x * 2.0;
    y.add_(1.0);
    y.mul_(y);
    return y;
  });
  expect_same([&] {  // in place on a tensor that is not pending: runs eagerly
    Tensor y = x.clone();
    Tensor z = y * 3.0;
    y.add_(1.0);
    return z + y;
  });
  expect_same([&] {  // a view of a pending tensor, then an in-place write seen through it
    Tensor y = x * 2.0;
    Tensor v = y.view({24});
    y.mul_(3.0);
    return v + 1.0;
  });
  expect_same([&] {  // a view as an operand
    Tensor y = x.t() * 2.0;
    return y.transpose(0, 1) + x;
  });
}

TEST_F(FusedEager, EveryObservationComputesThePendingValues) {
  Tensor x = full({3}, 2.0f);
  FusedEagerGuard on;
  Tensor y = x * 3.0 + 1.0;
  EXPECT_EQ(compile_stats().fused_eager_flushes, 0);
  EXPECT_EQ(y.sizes(), IntArrayRef({3}));  // metadata needs no flush
  EXPECT_EQ(y[0].item<float>(), 7.0f);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 1);
  Tensor z = y * 2.0;
  EXPECT_EQ(z.data_ptr<float>()[2], 14.0f);
  Tensor w = z - 4.0;
  std::ostringstream os;
  os << w;
  EXPECT_NE(os.str().find("10"), std::string::npos);
  Tensor u = w * 0.5;
  EXPECT_EQ(u.sum().item<float>(), 15.0f);  // a reduction consumes it
  Tensor v = u + 1.0;
  fused_eager_flush();
  EXPECT_NE(v.data_ptr(), nullptr);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 5);
}

TEST_F(FusedEager, ChainsFlushAtTheLengthLimit) {
  Tensor x = randn({100});
  expect_same([&] {
    Tensor y = x;
    for (int i = 0; i < 100; ++i) y = y * 0.999 + 0.001;
    return y;
  });
  EXPECT_EQ(compile_stats().fused_eager_ops, 200);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 4);  // at 64, 128, 192 and the guard's end
}

TEST_F(FusedEager, AutogradForwardRunsEagerlyAndTheBackwardFuses) {
  Tensor x = randn({8, 5});
  Tensor w0 = randn({8, 5});
  auto step = [&](Tensor& grad) {
    Tensor w = w0.clone().requires_grad_(true);
    Tensor loss = ((x * w).sigmoid() * 2.0 + x).square().sum();
    loss.backward();
    grad = w.grad();
    return loss.detach();
  };
  Tensor ge, gf;
  Tensor le = step(ge);
  reset_compile_stats();
  Tensor lf;
  {
    FusedEagerGuard on;
    lf = step(gf);
  }
  EXPECT_TRUE(bitwise_equal(le, lf));
  EXPECT_LE(max_ulps(ge, gf), 2);
  EXPECT_GT(compile_stats().fused_eager_ops, 0);  // the backward's pointwise ops
}

TEST_F(FusedEager, HooksSeeComputedGradients) {
  Tensor w = ones({4}).requires_grad_(true);
  float seen = 0;
  w.register_hook([&](const Tensor& g) {
    seen = static_cast<const float*>(g.data_ptr())[0];  // untyped: the hook flushed first
    return Tensor();
  });
  FusedEagerGuard on;
  (w * 3.0).sum().backward();
  EXPECT_EQ(seen, 3.0f);
  EXPECT_EQ(w.grad()[1].item<float>(), 3.0f);
}

TEST_F(FusedEager, CompiledFunctionsTakePendingInputs) {
  auto f = compile([](const Tensor& a) { return a * a + 1.0; });
  Tensor x = randn({64});
  Tensor eager = f(x * 2.0);
  FusedEagerGuard on;
  Tensor fused = f(x * 2.0) * 1.0;
  fused_eager_flush();
  EXPECT_TRUE(bitwise_equal(eager, fused));
}

TEST_F(FusedEager, MissingCompilerWarnsOnceAndGivesEagerResults) {
  const char* old = getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/nonexistent-brasa-path", 1);
  Tensor x = randn({50});
  auto fn = [&] { return ((x + 0.75) * 1.25 - x).neg(); };
  Tensor eager = fn();
  Tensor a, b;
  {
    FusedEagerGuard on;
    a = fn();
    b = fn();
  }
  setenv("PATH", saved.c_str(), 1);
  EXPECT_TRUE(bitwise_equal(eager, a));
  EXPECT_TRUE(bitwise_equal(eager, b));
  int fused_eager_warnings = 0;  // (the kernel cache warns once per process too)
  for (const std::string& w : warnings_)
    fused_eager_warnings += w.find("fused eager: no working C++ compiler") != std::string::npos;
  EXPECT_EQ(fused_eager_warnings, 1);
  FusedEagerGuard on;  // enabling again tries the compiler again
  Tensor c = fn();
  fused_eager_flush();
  EXPECT_TRUE(bitwise_equal(eager, c));
}

TEST_F(FusedEager, DeadIntermediatesAreNeverWritten) {
  Tensor x = randn({32});
  Tensor expected = x * 2.0 + 1.0;
  FusedEagerGuard on;
  Tensor y = x * 2.0;
  Tensor z = y + 1.0;
  EXPECT_EQ(y.storage().data(), nullptr);  // pending: no memory yet (data_ptr() would flush)
  y = Tensor();
  fused_eager_flush();
  EXPECT_NE(z.data_ptr(), nullptr);
  EXPECT_TRUE(bitwise_equal(z, expected));
}

TEST_F(FusedEager, UntypedDataAccessComputesThePendingValues) {
  // Note [Raw reads of pending tensors]: data_ptr(), mutable_data_ptr() and const_data_ptr() of
  // a pending tensor flush, as data_ptr<T>() does; a view made outside the dispatcher keeps its
  // offset.
  Tensor x = full({4}, 2.0f);
  FusedEagerGuard on;
  Tensor y = x * 3.0 + 1.0;
  ASSERT_EQ(y.storage().data(), nullptr);  // pending
  const auto* p = static_cast<const float*>(y.data_ptr());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 1);
  EXPECT_EQ(p[3], 7.0f);
  Tensor z = y * 2.0;
  ASSERT_EQ(z.storage().data(), nullptr);
  EXPECT_EQ(static_cast<const float*>(z.mutable_data_ptr())[0], 14.0f);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 2);
  Tensor w = z - 4.0;
  Tensor tail = detail::make_view(w, {2}, {1}, 2);  // shares w's storage at offset 2
  ASSERT_EQ(tail.storage().data(), nullptr);
  const auto* q = static_cast<const float*>(tail.const_data_ptr());
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q, static_cast<const float*>(w.data_ptr()) + 2);
  EXPECT_EQ(q[1], 10.0f);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 3);
  // Nothing pending: no flush; meta and empty tensors still have no data.
  EXPECT_NE(w.data_ptr(), nullptr);
  EXPECT_EQ(empty({2}, TensorOptions().device(kMeta)).data_ptr(), nullptr);
  EXPECT_EQ(compile_stats().fused_eager_flushes, 3);
}

TEST_F(FusedEager, MergedOutputsGetStoragesOfTheirOwn) {
  Tensor x = randn({16});
  Tensor expected = x * 2.0;
  FusedEagerGuard on;
  Tensor a = x * 2.0, b = x * 2.0;  // one value after CSE, two tensors
  fused_eager_flush();
  EXPECT_NE(a.data_ptr(), b.data_ptr());
  a.add_(1.0);  // (eager: a is no longer pending)
  EXPECT_TRUE(bitwise_equal(b, expected));
}

TEST_F(FusedEager, AnAliasMadeOutsideTheDispatcherSeesTheValues) {
  Tensor x = randn({4, 3});
  Tensor expected = (x + 0.5).t();
  FusedEagerGuard on;
  Tensor y = x + 0.5;
  Tensor alias = detail::make_view(y, {3, 4}, {1, 3}, 0);  // shares y's storage, no op ran
  y = Tensor();
  Tensor z = alias * 1.0;  // an operand whose storage is pending: computed first
  fused_eager_flush();
  EXPECT_TRUE(bitwise_equal(alias, expected));
  EXPECT_TRUE(bitwise_equal(z, expected));
}

}  // namespace
}  // namespace brasa::compile_test
