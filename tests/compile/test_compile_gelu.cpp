// GELU and its backward in generated code (Note [Generated GELU] in src/compile/codegen.cpp): both
// forms fuse with the pointwise ops around them and are bit for bit eager's kernels (Note [Explicit
// GELU roundings] in src/backends/cpu/kernels/gelu_kernels.cpp), forward and gradients, float and
// double, vector bodies, padded tails and strided loops, over every float exponent and the special
// values.
#include <random>

#include "brasa/nn/activation_functions.h"
#include "brasa/nn/gelu_backward.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using GeneratedGelu = CompileTest;

// Every float exponent from 2^-149 to 2^6, 512 mantissas each, both signs; +-0, +-inf, NaN.
Tensor sweep() {
  std::vector<float> v;
  for (int e = -149; e <= 6; ++e)
    for (int m = 0; m < 512; ++m) {
      const float x = std::ldexp(1.0f + static_cast<float>(m) / 512.0f, e);
      v.push_back(x);
      v.push_back(-x);
    }
  for (float s : {0.0f, -0.0f, INFINITY, -INFINITY, NAN}) v.push_back(s);
  return tensor(v);
}

TEST_F(GeneratedGelu, BothFormsFuseAndEqualEagerBitwise) {
  for (const char* form : {"none", "tanh"}) {
    SCOPED_TRACE(form);
    auto fn = [form](const Tensor& x) { return gelu(x * 1.5 + 0.25, form) * 2 - 1; };
    auto f = compile(fn);
    reset_compile_stats();
    const Tensor g = randn({64, 129});
    for (const Tensor& x : {randn({1003}) * 4, g.t() * 3, g.slice(1, 0, 100, 3), sweep(),
                            randn({5000}, kDouble) * 3}) {
      f(x);
      const Tensor got = f(x), want = fn(x);
      EXPECT_EQ(max_ulps(got, want), 0);
      EXPECT_TRUE(bitwise_equal(nan_to_num(got, 0, 0, 0), nan_to_num(want, 0, 0, 0)));
    }
    // One kernel per graph (mul add gelu mul sub): gelu is not left to eager.
    const CompileStats s = compile_stats();
    EXPECT_EQ(s.fused_kernels, s.graphs);
    EXPECT_GE(s.graphs, 1);
  }
}

TEST_F(GeneratedGelu, GradientsEqualEagerBitwise) {
  for (const char* form : {"none", "tanh"}) {
    for (ScalarType dtype : {kFloat, kDouble}) {
      SCOPED_TRACE(std::string(form) + (dtype == kFloat ? " float" : " double"));
      auto fn = [form](const Tensor& x, const Tensor& w) {
        return gelu(gelu(x * w + 0.5, form) * 1.25 - x, form);
      };
      auto f = compile(fn);
      const Tensor x0 = randn({37, 61}, dtype) * 3, w0 = randn({61}, dtype);
      const Tensor grad = randn({37, 61}, dtype);
      auto run = [&](bool compiled) {
        Tensor x = x0.detach().clone().requires_grad_(), w = w0.detach().clone().requires_grad_();
        Tensor y = compiled ? f(x, w) : fn(x, w);
        y.backward(grad);
        return std::vector<Tensor>{y.detach(), x.grad(), w.grad()};
      };
      run(true);
      const std::vector<Tensor> got = run(true), want = run(false);
      EXPECT_TRUE(bitwise_equal(got[0], want[0])) << max_ulps(got[0], want[0]) << " ulp";
      EXPECT_TRUE(bitwise_equal(got[1], want[1])) << max_ulps(got[1], want[1]) << " ulp";
      // w's gradient sums over rows: a column reduction in the kernel, within 1e-5 of eager.
      EXPECT_TRUE(allclose(got[2], want[2], 1e-5, 1e-6));
    }
  }
  EXPECT_GE(compile_stats().backward_graphs, 4);
}

TEST_F(GeneratedGelu, BackwardOverTheSweepEqualsEagersKernel) {
  // gelu_backward called directly (the op the compiled backward runs), over the special values.
  for (const char* form : {"none", "tanh"}) {
    SCOPED_TRACE(form);
    auto fn = [form](const Tensor& g, const Tensor& x) {
      return gelu_backward(g * 0.5, x, form) + 1;
    };
    auto f = compile(fn);
    const Tensor x = sweep(), g = randn({x.numel()});
    f(g, x);
    EXPECT_EQ(max_ulps(f(g, x), fn(g, x)), 0);
  }
}

TEST_F(GeneratedGelu, RandomChainsWithGeluEqualEagerBitwise) {
  std::mt19937 rng(16016);
  for (int c = 0; c < 6; ++c) {
    std::vector<int> ops;
    for (int i = 0, n = 3 + static_cast<int>(rng() % 4); i < n; ++i)
      ops.push_back(static_cast<int>(rng() % 6));
    auto fn = [ops](const Tensor& x, const Tensor& y) {
      Tensor z = x;
      for (int op : ops) {
        switch (op) {
          case 0: z = gelu(z, "none"); break;
          case 1: z = gelu(z, "tanh"); break;
          case 2: z = z * y; break;
          case 3: z = z + y * 0.5; break;
          case 4: z = (z * 0.5).tanh() * 3; break;
          default: z = z - 0.75; break;
        }
      }
      return z;
    };
    auto f = compile(fn);
    // Broadcasting, promotion (a Double operand), a transposed input.
    const Tensor x = randn({33, 20}).t() * 2;
    const Tensor y = c % 2 ? randn({33}) : randn({20, 1}, kDouble);
    f(x, y);
    const Tensor got = f(x, y), want = fn(x, y);
    EXPECT_TRUE(bitwise_equal(got, want)) << "chain " << c << ": " << max_ulps(got, want);
  }
}

}  // namespace
}  // namespace brasa::compile_test
