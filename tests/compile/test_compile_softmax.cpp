// Pointwise chains fused into a consumer softmax / log_softmax over the last dim (Note [Fused
// softmax] in src/compile/fusion.cpp): within 1e-5 (relative and absolute) of eager, on contiguous,
// transposed and broadcast inputs, with an intermediate that is also returned.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using FusedSoftmax = CompileTest;

TEST_F(FusedSoftmax, EqualsEagerWithinTolerance) {
  auto fn = [](const Tensor& x, const Tensor& bias) {
    Tensor z = x * 0.125 + bias;
    return std::vector<Tensor>{z.softmax(-1), (x.relu() - 2.0).log_softmax(1), z * 2};
  };
  auto f = compile(fn);
  for (const Tensor& x : {randn({37, 129}) * 8, randn({129, 37}).t() * 8}) {
    Tensor bias = randn({129});
    f(x, bias);
    std::vector<Tensor> got = f(x, bias), want = fn(x, bias);
    for (size_t i = 0; i < got.size(); ++i) {
      // log_softmax near 0 is exact only to an ulp of max + log(sum) (~2e-6 here), in eager too.
      EXPECT_TRUE(allclose(got[i], want[i], 1e-5, 1e-5))
          << "output " << i << ": max difference " << (got[i] - want[i]).abs().max().item<double>();
      EXPECT_EQ(got[i].sizes(), want[i].sizes());
    }
    EXPECT_TRUE(bitwise_equal(got[2], want[2]));
  }
  EXPECT_EQ(compile_stats().compiled_calls, 2);
}

TEST_F(FusedSoftmax, RowsOfMinusInfinityGiveNaNAsEager) {
  auto fn = [](const Tensor& x) { return (x * 1.0).softmax(-1); };
  auto f = compile(fn);
  Tensor x = full({2, 4}, -std::numeric_limits<float>::infinity());
  f(x);
  Tensor got = f(x), want = fn(x);
  EXPECT_TRUE(got.isnan().all().item<bool>());
  EXPECT_TRUE(want.isnan().all().item<bool>());
}

}  // namespace
}  // namespace brasa::compile_test
