// compile(fn): capture, passes, interpreter mode, BRASA_COMPILE=0, graph breaks, fullgraph, and
// the 20-op chain fused into one kernel.
#include <sstream>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using BasicCompile = CompileTest;

Tensor chain20(const Tensor& x) {
  Tensor y = x;
  for (int i = 0; i < 10; ++i) y = y * 1.0001 + 0.5;
  return y;
}

TEST_F(BasicCompile, ChainIsFusedAndBitwiseEqual) {
  auto f = compile(chain20);
  Tensor x = randn({1000, 37});
  Tensor first = f(x);  // traced: eager's result
  Tensor second = f(x);
  EXPECT_TRUE(bitwise_equal(first, chain20(x)));
  EXPECT_TRUE(bitwise_equal(second, chain20(x)));
  CompileStats s = compile_stats();
  EXPECT_EQ(s.traces, 1);
  EXPECT_EQ(s.graphs, 1);
  EXPECT_EQ(s.compiled_calls, 1);
  EXPECT_EQ(s.compiler_runs + s.memory_cache_hits + s.disk_cache_hits, 1);
  EXPECT_EQ(files_ending(".cpp").size() + (s.memory_cache_hits ? 1 : 0), 1u);
}

TEST_F(BasicCompile, InterpretAndNoFuseModesEqualEager) {
  for (CompileMode mode : {CompileMode::Interpret, CompileMode::NoFuse}) {
    auto fn = [](const Tensor& a, const Tensor& b) {
      return std::make_tuple((a.matmul(b) + 1).softmax(-1), a.t() * 2);
    };
    CompileOptions o;
    o.mode = mode;
    auto f = compile(fn, o);
    Tensor a = randn({5, 4}), b = randn({4, 3});
    f(a, b);
    auto [p, q] = f(a, b);
    auto [ep, eq] = fn(a, b);
    EXPECT_TRUE(bitwise_equal(p, ep));
    EXPECT_TRUE(bitwise_equal(q, eq));
  }
  EXPECT_EQ(compile_stats().compiler_runs, 0);
}

TEST_F(BasicCompile, PassesDropDeadCodeMergeAndFold) {
  int calls = 0;
  auto fn = [&calls](const Tensor& x) {
    ++calls;
    Tensor unused = x.exp();         // dead
    Tensor c = ones({3}) * 2;        // folded
    return (x.sin() + x.sin()) * c;  // CSE: one sin
  };
  CompileOptions o;
  o.mode = CompileMode::NoFuse;
  auto f = compile(fn, o);
  Tensor x = randn({3});
  f(x);
  Tensor y = f(x);
  EXPECT_EQ(calls, 1);  // the second call replays the graph
  EXPECT_TRUE(bitwise_equal(y, fn(x)));
}

TEST_F(BasicCompile, DisabledByEnvironmentIsTheIdentity) {
  setenv("BRASA_COMPILE", "0", 1);
  int calls = 0;
  auto f = compile([&calls](const Tensor& x) {
    ++calls;
    return x + 1;
  });
  unsetenv("BRASA_COMPILE");
  EXPECT_FALSE(f.enabled());
  f(ones({2}));
  f(ones({2}));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(compile_stats().traces, 0);
}

TEST_F(BasicCompile, GraphBreakRunsEagerlyWithIdenticalResults) {
  int calls = 0;
  auto fn = [&calls](const Tensor& x) {
    ++calls;
    Tensor y = x * 2;
    if (y.sum().item<double>() > 0) return y + 1;  // data-dependent control flow
    return y - 1;
  };
  auto f = compile(fn);
  Tensor pos = ones({4}), neg = -ones({4});
  EXPECT_TRUE(bitwise_equal(f(pos), fn(pos)));
  EXPECT_TRUE(bitwise_equal(f(neg), fn(neg)));  // same signature: the break ran eagerly again
  EXPECT_TRUE(bitwise_equal(f(neg), fn(neg)));
  EXPECT_EQ(compile_stats().graph_breaks, 1);
  EXPECT_EQ(compile_stats().eager_calls, 2);
  EXPECT_EQ(calls, 6);

  auto g = compile([](const Tensor& x) { return x.index_select(0, x.nonzero().flatten()); });
  Tensor z = tensor({0.0, 3.0, 0.0, 5.0});
  g(z);
  EXPECT_TRUE(bitwise_equal(g(z), z.index_select(0, z.nonzero().flatten())));

  std::ostringstream os;
  auto p = compile([&os](const Tensor& x) {
    os << x;
    return x + 1;
  });
  p(ones({2}));
  p(ones({2}));
  EXPECT_EQ(compile_stats().graph_breaks, 3);
  EXPECT_NE(os.str().find("[ CPUFloatType{2} ]"), os.str().rfind("[ CPUFloatType{2} ]"));
}

TEST_F(BasicCompile, FullgraphMakesABreakAnErrorNamingTheOp) {
  CompileOptions o;
  o.fullgraph = true;
  auto f = compile([](const Tensor& x) { return x.nonzero(); }, o);
  try {
    f(ones({3}));
    FAIL() << "expected an error";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("graph break at nonzero"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the function compiled at "), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("test_compile_basic.cpp:"), std::string::npos) << e.what();
  }
  auto g = compile([](const Tensor& x) { return x * x.max().item<double>(); }, o);
  EXPECT_THROW(g(ones({3})), RuntimeError);
}

TEST_F(BasicCompile, InPlaceOpsAndViewsReplayTheirEagerSemantics) {
  auto fn = [](const Tensor& x, const Tensor& buf) {
    Tensor v = buf.narrow(0, 1, 2);
    v.add_(x);  // writes through a view into an input
    Tensor y = (buf * 3).exp();
    buf.mul_(2);
    return y + buf;
  };
  auto f = compile(fn);
  Tensor x = randn({2, 3});
  Tensor b1 = randn({4, 3}), b2 = b1.clone(), b3 = b1.clone();
  f(x, b1);               // trace
  Tensor got = f(x, b2);  // replay
  Tensor want = fn(x, b3);
  EXPECT_LE(max_ulps(got, want), 2);
  EXPECT_TRUE(bitwise_equal(b2, b3));
}

TEST_F(BasicCompile, ReshapeCopiesAreReplayedWithTheNewData) {
  // reshape of a transposed tensor copies: the copy must be a node of the graph, not a captured
  // constant holding the traced call's data.
  auto fn = [](const Tensor& x) { return (x * 2).t().reshape({-1}).tanh() + 1; };
  auto f = compile(fn);
  f(randn({5, 7}));
  for (int i = 0; i < 3; ++i) {
    const Tensor x = randn({5, 7});
    EXPECT_TRUE(bitwise_equal(f(x), fn(x))) << i;
  }
  EXPECT_EQ(compile_stats().graph_breaks, 0);
}

TEST_F(BasicCompile, TensorResizedOutsideTheDispatcherIsAGraphBreak) {
  auto fn = [](const Tensor& x) {
    Tensor y = x * 3;
    y.unsafeGetTensorImpl()->set_sizes_contiguous({x.numel()});  // no op sees this
    return y + 1;
  };
  auto f = compile(fn);
  f(randn({2, 3}));
  const Tensor x = randn({2, 3});
  EXPECT_TRUE(bitwise_equal(f(x), fn(x)));
  EXPECT_EQ(compile_stats().graph_breaks, 1);
}

}  // namespace
}  // namespace brasa::compile_test
