// Finite-difference checks (gradcheck, float64) of the pointwise and view derivatives; PyTorch's
// gradients for the same ops are compared by the conformance harness.

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "brasa/brasa.h"

namespace brasa {
namespace {

using autograd::variable_list;

// Values in (lo, hi), away from the kinks of abs/relu/floor and the poles of log/rsqrt.
Tensor input(std::vector<int64_t> sizes, double lo, double hi, uint64_t seed) {
  Generator g = make_generator(seed);
  return (rand(sizes, g, TensorOptions(kDouble)) * (hi - lo) + lo).requires_grad_(true);
}

struct UnaryCase {
  const char* name;
  std::function<Tensor(const Tensor&)> fn;
  double lo, hi;
};

TEST(PointwiseGrad, UnaryOpsMatchFiniteDifferences) {
  const std::vector<UnaryCase> cases = {
      {"reciprocal", [](const Tensor& x) { return x.reciprocal(); }, 0.5, 2},
      {"exp", [](const Tensor& x) { return x.exp(); }, -1, 1},
      {"exp2", [](const Tensor& x) { return x.exp2(); }, -1, 1},
      {"expm1", [](const Tensor& x) { return x.expm1(); }, -1, 1},
      {"log", [](const Tensor& x) { return x.log(); }, 0.5, 2},
      {"log2", [](const Tensor& x) { return x.log2(); }, 0.5, 2},
      {"log10", [](const Tensor& x) { return x.log10(); }, 0.5, 2},
      {"log1p", [](const Tensor& x) { return x.log1p(); }, 0.5, 2},
      {"sqrt", [](const Tensor& x) { return x.sqrt(); }, 0.5, 2},
      {"rsqrt", [](const Tensor& x) { return x.rsqrt(); }, 0.5, 2},
      {"sin", [](const Tensor& x) { return x.sin(); }, -2, 2},
      {"cos", [](const Tensor& x) { return x.cos(); }, -2, 2},
      {"tan", [](const Tensor& x) { return x.tan(); }, -1, 1},
      {"asin", [](const Tensor& x) { return x.asin(); }, -0.8, 0.8},
      {"acos", [](const Tensor& x) { return x.acos(); }, -0.8, 0.8},
      {"atan", [](const Tensor& x) { return x.atan(); }, -2, 2},
      {"sinh", [](const Tensor& x) { return x.sinh(); }, -1, 1},
      {"cosh", [](const Tensor& x) { return x.cosh(); }, -1, 1},
      {"tanh", [](const Tensor& x) { return x.tanh(); }, -1, 1},
      {"sigmoid", [](const Tensor& x) { return x.sigmoid(); }, -2, 2},
      {"erf", [](const Tensor& x) { return x.erf(); }, -1, 1},
      {"erfinv", [](const Tensor& x) { return x.erfinv(); }, -0.8, 0.8},
      {"neg", [](const Tensor& x) { return x.neg(); }, -1, 1},
      {"abs", [](const Tensor& x) { return x.abs(); }, 0.2, 1},
      {"square", [](const Tensor& x) { return x.square(); }, -1, 1},
      {"frac", [](const Tensor& x) { return x.frac(); }, 0.1, 0.9},
      {"relu", [](const Tensor& x) { return x.relu(); }, 0.1, 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Tensor x = input({2, 3}, c.lo, c.hi, 7);
    auto fn = [&](const variable_list& in) -> variable_list { return {c.fn(in[0])}; };
    EXPECT_TRUE(autograd::gradcheck(fn, {x}));
  }
}

TEST(PointwiseGrad, BinaryOpsWithBroadcastingMatchFiniteDifferences) {
  using Fn = std::function<Tensor(const Tensor&, const Tensor&)>;
  const std::vector<std::pair<const char*, Fn>> cases = {
      {"add", [](const Tensor& a, const Tensor& b) { return a.add(b, 2.5); }},
      {"sub", [](const Tensor& a, const Tensor& b) { return a.sub(b, 0.5); }},
      {"mul", [](const Tensor& a, const Tensor& b) { return a * b; }},
      {"div", [](const Tensor& a, const Tensor& b) { return a / b; }},
      {"pow", [](const Tensor& a, const Tensor& b) { return a.pow(b); }},
      {"atan2", [](const Tensor& a, const Tensor& b) { return atan2(a, b); }},
      {"hypot", [](const Tensor& a, const Tensor& b) { return hypot(a, b); }},
      {"maximum", [](const Tensor& a, const Tensor& b) { return maximum(a, b); }},
      {"minimum", [](const Tensor& a, const Tensor& b) { return minimum(a, b); }},
  };
  for (const auto& [name, f] : cases) {
    SCOPED_TRACE(name);
    Tensor a = input({2, 3}, 0.5, 2, 11);
    Tensor b = input({3}, 0.6, 1.9, 12);  // broadcast along dim 0
    auto fn = [&](const variable_list& in) -> variable_list { return {f(in[0], in[1])}; };
    EXPECT_TRUE(autograd::gradcheck(fn, {a, b}));
    EXPECT_TRUE(autograd::gradgradcheck(fn, {a, b}));
  }
}

TEST(PointwiseGrad, ViewChainsAndInPlaceOnViews) {
  Tensor x = input({3, 4}, -1, 1, 21);
  auto views = [](const variable_list& in) -> variable_list {
    Tensor v = in[0].t().reshape({2, 6}).narrow(1, 1, 4).unsqueeze(0).expand({2, 2, 4});
    return {v.select(0, 1).diagonal() * 3 + v.sum(0).permute({1, 0}).flatten().sum()};
  };
  EXPECT_TRUE(autograd::gradcheck(views, {x}));
  // An in-place op on a view rebases the base's history (CopySlices).
  auto inplace = [](const variable_list& in) -> variable_list {
    Tensor y = in[0] * 1;
    y.narrow(0, 1, 2).mul_(in[0].narrow(0, 0, 2).exp());
    y.select(1, 0).add_(2);
    return {y};
  };
  EXPECT_TRUE(autograd::gradcheck(inplace, {x}));
  EXPECT_TRUE(autograd::gradgradcheck(inplace, {x}));
}

TEST(PointwiseGrad, ViewOfALeafCannotBeModifiedInPlace) {
  Tensor x = input({3}, -1, 1, 3);
  EXPECT_THROW(x.narrow(0, 0, 2).add_(1), ValueError);
}

}  // namespace
}  // namespace brasa
