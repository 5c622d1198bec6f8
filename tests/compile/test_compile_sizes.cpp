// Size arguments (Note [Size arguments]): sizes a function reads from its inputs and passes to
// ops (view, reshape, arange; B * T too) become references to the inputs' sizes after one retrace,
// so every later size runs the first graph with no trace and no compiler run; a size the function
// computes otherwise (B + 1) keeps separate graphs, and both give eager's results.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using SizeArguments = CompileTest;

TEST_F(SizeArguments, ViewAndArangeSizesFollowTheInputs) {
  auto fn = [](const Tensor& x, const Tensor& w) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
    Tensor pos = arange(T, TensorOptions(kFloat)).view({1, T, 1});
    Tensor flat = ((x + pos) * w).tanh().view({B * T, C});
    Tensor h = flat.view({B, T, 2, C / 2}).transpose(1, 2);
    return h.reshape({B, 2, T, C / 2}).softmax(-1) * 2.0;
  };
  auto f = compile(fn);
  const Tensor w = randn({8});
  const int64_t shapes[][2] = {{4, 6}, {3, 6}, {9, 6}, {4, 11}, {5, 2}, {17, 33}};
  int64_t runs_after_first = -1;
  for (const auto& s : shapes) {
    const Tensor x = randn({s[0], s[1], 8});
    Tensor want = fn(x, w);
    Tensor got = f(x, w);
    EXPECT_TRUE(allclose(got, want, 1e-5, 1e-6)) << s[0] << "x" << s[1];
    if (runs_after_first < 0) runs_after_first = compile_stats().compiler_runs;
    got = f(x, w);  // and once more from the graph
    EXPECT_TRUE(allclose(got, want, 1e-5, 1e-6)) << s[0] << "x" << s[1];
  }
  const CompileStats st = compile_stats();
  EXPECT_EQ(st.compiler_runs, runs_after_first);  // no compiler run after the first call
  EXPECT_EQ(st.traces, 3);  // the first shape, a new batch size, a new sequence length
  EXPECT_EQ(st.recompiles, 2);
  EXPECT_EQ(st.eager_calls, 0);
}

TEST_F(SizeArguments, ComputedSizesKeepSeparateGraphs) {
  auto fn = [](const Tensor& x) {  // B + 1 is no product of the input's sizes
    return (x * 3).sum({1}) + arange(x.size(0) + 1, TensorOptions(kFloat)).slice(0, 1);
  };
  auto f = compile(fn);
  for (int64_t b : {4, 5, 6}) {
    const Tensor x = randn({b, 7});
    f(x);
    EXPECT_TRUE(bitwise_equal(f(x), fn(x))) << b;
  }
  EXPECT_EQ(compile_stats().traces, 3);
  EXPECT_EQ(compile_stats().graphs, 3);
}

}  // namespace
}  // namespace brasa::compile_test
