// Half and BFloat16 pointwise ops run through the float loops with block conversions (Note [Reduced
// floats as float] in src/backends/cpu/reduced_float.h). Each result must equal the float result
// rounded once to the 16-bit type, computed here through the copy kernel (an independent
// conversion), for special values, several blocks with a tail, strided and broadcast operands, a
// strided out=, bool results and the vectorised unary functions. Reductions over Half data read it
// through float blocks too (Note [Half reductions as float] in src/backends/cpu/reduce_loops.h):
// they must agree with the float reduction of the same values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "brasa/brasa.h"
#include "support/tensor_values.h"

using namespace brasa;
using brasa::testing::make;
using brasa::testing::random_values;
using brasa::testing::transposed;
using brasa::testing::values;

namespace {

// Values that test the conversions: signed zeros, half subnormals, the largest finite values and
// what overflows, infinities, NaN, ties to even, and ordinary numbers.
std::vector<double> special_values() {
  return {0.0,
          -0.0,
          5.960464477539063e-08,
          -5.960464477539063e-08,
          6.1e-05,
          65504.0,
          65520.0,
          -65536.0,
          3.0e38,
          -3.0e38,
          1.0 / 3,
          1 + 1.0 / 2048,
          1 + 3.0 / 2048,
          -2.5,
          std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN(),
          7.0};
}

// Same values (within rtol when it is not 0), NaN where NaN and the same infinities, in the same
// positions.
void expect_close(const Tensor& got, const Tensor& want, const char* what, double rtol) {
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.sizes(), want.sizes()) << what;
  std::vector<double> g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(w[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << what << " at " << i;
    } else if (rtol == 0 || std::isinf(w[i])) {
      EXPECT_EQ(g[i], w[i]) << what << " at " << i;
    } else {
      EXPECT_NEAR(g[i], w[i], rtol * std::abs(w[i]) + 1e-6) << what << " at " << i;
    }
  }
}
void expect_same(const Tensor& got, const Tensor& want, const char* what) {
  expect_close(got, want, what, 0);
}

// op(a, b) on 16-bit data vs op on float data rounded once.
template <typename Op>
void check_binary(ScalarType dt, const Tensor& a32, const Tensor& b32, Op op, const char* what) {
  Tensor a = a32.to(dt), b = b32.to(dt);
  Tensor got = op(a, b);
  Tensor want = op(a.to(kFloat), b.to(kFloat));
  if (want.dtype() == kFloat) want = want.to(dt);
  expect_same(got, want, what);
}

class ReducedFloat : public ::testing::TestWithParam<ScalarType> {};

TEST_P(ReducedFloat, BinaryOpsRoundOnceFromFloat) {
  const ScalarType dt = GetParam();
  std::vector<double> s = special_values();
  Tensor x = make(s, {int64_t(s.size())}), y = x.flip({0});
  auto add = [](const Tensor& a, const Tensor& b) { return a + b; };
  auto mul = [](const Tensor& a, const Tensor& b) { return a * b; };
  auto div = [](const Tensor& a, const Tensor& b) { return a / b; };
  auto lt = [](const Tensor& a, const Tensor& b) { return a < b; };
  auto maximum = [](const Tensor& a, const Tensor& b) { return brasa::maximum(a, b); };
  check_binary(dt, x, y, add, "add special");
  check_binary(dt, x, y, mul, "mul special");
  check_binary(dt, x, y, div, "div special");
  check_binary(dt, x, y, lt, "lt special");
  check_binary(dt, x, y, maximum, "maximum special");

  // 1300 elements: two full blocks of 512 and a tail.
  Tensor a = make(random_values(1300, 1), {1300}).mul(300),
         b = make(random_values(1300, 2), {1300});
  check_binary(dt, a, b, add, "add blocks");
  check_binary(dt, a, b, div, "div blocks");
  check_binary(dt, a, b, lt, "lt blocks");
}

TEST_P(ReducedFloat, StridedBroadcastAndOutArguments) {
  const ScalarType dt = GetParam();
  Tensor m = make(random_values(40 * 30, 3), {40, 30}).mul(10);
  Tensor t = transposed(m, 0, 1);  // [30, 40], non-contiguous
  Tensor row = make(random_values(40, 4), {40}), scalar = make({1.5}, {});
  auto add = [](const Tensor& a, const Tensor& b) { return a + b; };
  auto sub = [](const Tensor& a, const Tensor& b) { return a - b; };
  auto ge = [](const Tensor& a, const Tensor& b) { return a >= b; };
  check_binary(dt, t, t, add, "strided + strided");
  check_binary(dt, t, row, sub, "strided - broadcast row");
  check_binary(dt, t, scalar, add, "strided + 0-d");
  check_binary(dt, scalar, t, sub, "0-d - strided");
  check_binary(dt, t, row, ge, "strided >= row");

  // out= into a strided view of the 16-bit type.
  Tensor out_base = zeros({40, 30}, TensorOptions(dt));
  Tensor out = transposed(out_base, 0, 1);
  add_out(out, t.to(dt), row.to(dt));
  expect_same(out, (t.to(dt).to(kFloat) + row.to(dt).to(kFloat)).to(dt), "strided out=");
}

TEST_P(ReducedFloat, UnaryFunctionsRoundOnceFromFloat) {
  const ScalarType dt = GetParam();
  Tensor x = make(random_values(1100, 5), {1100}).mul(4);
  Tensor h = x.to(dt);
  expect_same(h.exp(), h.to(kFloat).exp().to(dt), "exp");
  expect_same(h.sigmoid(), h.to(kFloat).sigmoid().to(dt), "sigmoid");
  expect_same(h.neg(), h.to(kFloat).neg().to(dt), "neg");
  expect_same(h.abs(), h.to(kFloat).abs().to(dt), "abs");
  expect_same(h.isnan(), h.to(kFloat).isnan(), "isnan");
  Tensor t = transposed(make(random_values(600, 6), {20, 30}), 0, 1).to(dt);
  expect_same(t.tanh(), t.to(kFloat).tanh().to(dt), "tanh strided");
}

// A reduction of 16-bit data vs the same reduction of its float values, rounded once: exact for
// selections (max, argmax, all), within one 16-bit rounding for sums, whose order may differ.
template <typename Op>
void check_reduction(const Tensor& h, Op op, const char* what, bool exact) {
  Tensor got = op(h);
  Tensor want = op(h.to(kFloat));
  if (want.dtype() == kFloat) want = want.to(h.dtype());
  expect_close(got, want, what, exact ? 0 : 2e-3);
}

TEST_P(ReducedFloat, ReductionsMatchFloat) {
  const ScalarType dt = GetParam();
  // [8, 5000]: rows longer than a conversion block (4096) with a tail; dim 0 takes the row engine.
  Tensor m = make(random_values(8 * 5000, 7), {8, 5000}).mul(3).to(dt);
  Tensor t = transposed(m, 0, 1);                                     // strided
  Tensor cube = make(random_values(6 * 7 * 9, 8), {6, 7, 9}).to(dt);  // odd sizes
  Tensor scalar = make({2.5}, {}).to(dt);
  for (const Tensor& x : {m, t, cube}) {
    check_reduction(
        x, [](const Tensor& a) { return a.sum(); }, "sum all", false);
    check_reduction(
        x, [](const Tensor& a) { return a.sum(1); }, "sum dim 1", false);
    check_reduction(
        x, [](const Tensor& a) { return a.sum(0, true); }, "sum dim 0", false);
    check_reduction(
        x, [](const Tensor& a) { return a.mean(-1); }, "mean", false);
    check_reduction(
        x, [](const Tensor& a) { return a.prod(0); }, "prod", false);
    check_reduction(
        x, [](const Tensor& a) { return a.var(1); }, "var", false);
    check_reduction(
        x, [](const Tensor& a) { return a.std(0); }, "std", false);
    check_reduction(
        x, [](const Tensor& a) { return a.norm(2, 1); }, "norm", false);
    check_reduction(
        x, [](const Tensor& a) { return a.logsumexp(1); }, "logsumexp", false);
    check_reduction(
        x, [](const Tensor& a) { return a.amax(1); }, "amax", true);
    check_reduction(
        x, [](const Tensor& a) { return a.amin(0); }, "amin", true);
    check_reduction(
        x, [](const Tensor& a) { return a.argmax(1); }, "argmax", true);
    check_reduction(
        x, [](const Tensor& a) { return std::get<0>(a.max(0)); }, "max values", true);
    check_reduction(
        x, [](const Tensor& a) { return std::get<1>(a.min(1)); }, "min indices", true);
    check_reduction(
        x, [](const Tensor& a) { return a.gt(0).any(1); }, "any", true);
    check_reduction(
        x, [](const Tensor& a) { return a.count_nonzero(std::optional<int64_t>(0)); },
        "count_nonzero", true);
  }
  check_reduction(
      scalar, [](const Tensor& a) { return a.sum(); }, "0-d sum", true);
  check_reduction(
      scalar, [](const Tensor& a) { return a.amax(); }, "0-d amax", true);
  // NaN propagates through the blocks.
  std::vector<double> s = special_values();
  Tensor sp = make(s, {int64_t(s.size())}).to(dt);
  check_reduction(
      sp, [](const Tensor& a) { return a.amax(); }, "amax special", true);
  check_reduction(
      sp, [](const Tensor& a) { return a.argmin(); }, "argmin special", true);
  check_reduction(
      sp, [](const Tensor& a) { return a.sum(); }, "sum special", false);
}

INSTANTIATE_TEST_SUITE_P(HalfAndBFloat16, ReducedFloat, ::testing::Values(kHalf, kBFloat16),
                         [](const auto& info) {
                           return info.param == kHalf ? "Half" : "BFloat16";
                         });

}  // namespace
