// Random pointwise chains (seeded) with broadcasting, dtype promotion, non-contiguous inputs, views
// and in-place ops: compiled equals eager, bitwise for exact ops, within 2 ulp for one
// transcendental, within 1e-5 relative for chains through transcendentals. All chains live in one
// compiled function, so the test costs one compiler run.
#include <random>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using RandomChains = CompileTest;

struct Step {
  int op;       // see apply()
  int operand;  // input index or literal choice
};
struct Chain {
  int start;
  std::vector<Step> steps;
  bool transcendental = false;
};

constexpr int kExactOps = 9, kAllOps = 13;
const double kLiterals[] = {0.5, -1.25, 3.0, 1.0001, 7.0};

Tensor apply(const Tensor& y, const Step& s, const std::vector<Tensor>& in) {
  const Tensor& other = in[s.operand % in.size()];
  const double lit = kLiterals[s.operand % 5];
  switch (s.op) {
    case 0: return y + other;
    case 1: return y - lit;
    case 2: return y * other;
    case 3: return y / (other.abs() + 1);
    case 4: return y.neg();
    case 5: return y.relu();
    case 6: return y.abs().sqrt();
    case 7: return y.unsqueeze(0).squeeze(0) * lit;  // views inside the chain
    case 8: {
      Tensor z = y * other;  // in-place ops on an intermediate
      z.add_(lit);
      z.mul_(0.75);
      return z;
    }
    case 9: return (y * 0.125).exp();
    case 10: return y.tanh();
    case 11: return y.sigmoid();
    default: return (y.abs() + 1).log();
  }
}

std::vector<Tensor> run_chains(const std::vector<Chain>& chains, const std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  for (const Chain& c : chains) {
    Tensor y = in[c.start];
    for (const Step& s : c.steps) y = apply(y, s, in);
    out.push_back(y);
  }
  return out;
}

TEST_F(RandomChains, CompiledEqualsEager) {
  std::mt19937 rng(20261201);
  std::vector<Chain> chains;
  for (int c = 0; c < 16; ++c) {
    Chain ch;
    ch.start = static_cast<int>(rng() % 5);
    const int len = 3 + static_cast<int>(rng() % 6);
    const int ops = c < 8 ? kExactOps : kAllOps;
    for (int i = 0; i < len; ++i) {
      Step s{static_cast<int>(rng() % ops), static_cast<int>(rng() % 5)};
      ch.transcendental |= s.op >= kExactOps;
      ch.steps.push_back(s);
    }
    chains.push_back(ch);
  }
  manual_seed(7);
  std::vector<Tensor> in = {
      randn({6, 5}),           // contiguous
      randn({5}),              // broadcast
      randn({6, 1}, kDouble),  // broadcast, promotes to double
      randn({5, 6}).t(),       // non-contiguous
      randint(-5, 5, {6, 5}),  // int64: promotes to float
  };
  auto fn = [&chains](const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& d,
                      const Tensor& e) {
    return run_chains(chains, {a, b, c, d, e});
  };
  auto f = compile(fn);
  f(in[0], in[1], in[2], in[3], in[4]);
  std::vector<Tensor> got = f(in[0], in[1], in[2], in[3], in[4]);
  std::vector<Tensor> want = fn(in[0], in[1], in[2], in[3], in[4]);
  EXPECT_EQ(compile_stats().compiled_calls, 1);
  EXPECT_LE(compile_stats().compiler_runs, 1);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].dtype(), want[i].dtype()) << "chain " << i;
    ASSERT_EQ(got[i].sizes(), want[i].sizes()) << "chain " << i;
    EXPECT_EQ(got[i].strides(), want[i].strides()) << "chain " << i;  // eager's layout
    if (chains[i].transcendental)
      EXPECT_TRUE(allclose(got[i], want[i], 1e-5, 1e-6, true)) << "chain " << i;
    else
      EXPECT_TRUE(bitwise_equal(got[i], want[i])) << "chain " << i;
  }
}

TEST_F(RandomChains, TranscendentalsWithinTwoUlp) {
  auto fn = [](const Tensor& x) {
    Tensor y = x + 0.0;  // a second op, so that each one is fused
    return std::vector<Tensor>{y.exp(), (y.abs() + 1).log(), y.tanh(), y.sigmoid(), y.abs().sqrt()};
  };
  auto f = compile(fn);
  Tensor x = randn({4096}) * 4;
  f(x);
  std::vector<Tensor> got = f(x), want = fn(x);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_LE(max_ulps(got[i], want[i]), 2) << "op " << i;

  // exp over its whole range: subnormal results, overflow to inf, and inf, -inf and NaN inputs.
  auto e = [](const Tensor& x) { return (x + 0.0).exp(); };
  auto ce = compile(e);
  Tensor wide = cat({linspace(-104, 89, 40001),
                     tensor({std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(), std::nanf("")})});
  ce(wide);
  EXPECT_LE(max_ulps(ce(wide), e(wide)), 2);
}

}  // namespace
}  // namespace brasa::compile_test
