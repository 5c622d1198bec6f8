// The autograd engine and API: leaves, grad_fn names, accumulation, retain/create graph, grad(),
// hooks, modes, and the safety checks (Note [Autograd engine]).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/ops/tensor_data.h"
#include "support/throws_with.h"

namespace brasa {
namespace {

using autograd::variable_list;

Tensor leaf(std::vector<double> v) {
  return tensor(v, TensorOptions(kDouble)).requires_grad_(true);
}

void expect_values(const Tensor& t, std::vector<double> v) {
  ASSERT_TRUE(t.defined());
  Tensor c = t.to(kDouble).contiguous().reshape({-1});
  ASSERT_EQ(c.numel(), static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i)
    EXPECT_NEAR(c[i].item<double>(), v[i], 1e-12) << "element " << i;
}

TEST(AutogradEngine, ScalarChain) {
  Tensor x = leaf({3.0});
  Tensor y = (x * 2 + 1).sum();
  EXPECT_FALSE(y.is_leaf());
  ASSERT_TRUE(y.grad_fn());
  EXPECT_EQ(y.grad_fn()->name(), "SumBackward0");
  y.backward();
  expect_values(x.grad(), {2.0});
}

TEST(AutogradEngine, AccumulatesAcrossBackwards) {
  Tensor x = leaf({1.0, 2.0});
  (x * x).sum().backward();
  (x * 3).sum().backward();
  expect_values(x.grad(), {5.0, 7.0});
}

TEST(AutogradEngine, BroadcastGradientsAreSummed) {
  Tensor a = tensor(std::vector<double>{1, 2, 3, 4, 5, 6}, TensorOptions(kDouble))
                 .view({2, 3})
                 .requires_grad_(true);
  Tensor b = leaf({10.0, 20.0, 30.0});
  (a * b).sum().backward();
  expect_values(b.grad(), {5.0, 7.0, 9.0});
  expect_values(a.grad(), {10, 20, 30, 10, 20, 30});
}

TEST(AutogradEngine, SecondBackwardThroughFreedGraphIsRefused) {
  Tensor x = leaf({2.0});
  Tensor y = (x * x).sum();
  y.backward();
  try {
    y.backward();
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("second time"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("MulBackward0"), std::string::npos) << e.what();
  }
}

TEST(AutogradEngine, RetainGraphAllowsASecondBackward) {
  Tensor x = leaf({2.0});
  Tensor y = (x * x).sum();
  y.backward({}, true);
  y.backward();
  expect_values(x.grad(), {8.0});
}

TEST(AutogradEngine, NonScalarNeedsGradient) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 2;
  EXPECT_THROW(y.backward(), ValueError);
  y.backward(ones_like(y));
  expect_values(x.grad(), {2.0, 2.0});
}

TEST(AutogradEngine, GradDoesNotTouchDotGrad) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = (x * x * x).sum();
  variable_list g = autograd::grad({y}, {x});
  expect_values(g[0], {3.0, 12.0});
  EXPECT_FALSE(x.grad().defined());
}

TEST(AutogradEngine, CreateGraphGivesSecondDerivatives) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = (x * x * x).sum();
  variable_list g = autograd::grad({y}, {x}, {}, std::nullopt, true);
  ASSERT_TRUE(g[0].requires_grad());
  variable_list gg = autograd::grad({g[0].sum()}, {x});
  expect_values(gg[0], {6.0, 12.0});
}

TEST(AutogradEngine, UnusedInputNeedsAllowUnused) {
  Tensor x = leaf({1.0});
  Tensor z = leaf({1.0});
  Tensor y = (x * 2).sum();
  EXPECT_THROW(autograd::grad({y}, {x, z}, {}, true), ValueError);
  variable_list g = autograd::grad({y}, {x, z}, {}, std::nullopt, false, true);
  EXPECT_FALSE(g[1].defined());
}

TEST(AutogradEngine, BackwardInputsRestrictsAccumulation) {
  Tensor x = leaf({1.0});
  Tensor z = leaf({1.0});
  (x * z * 3).sum().backward({}, std::nullopt, false, std::vector<Tensor>{x});
  expect_values(x.grad(), {3.0});
  EXPECT_FALSE(z.grad().defined());
}

TEST(AutogradEngine, NoGradGuardStopsRecording) {
  Tensor x = leaf({1.0});
  {
    NoGradGuard guard;
    Tensor y = x * 2;
    EXPECT_FALSE(y.requires_grad());
    EXPECT_FALSE(GradMode::is_enabled());
  }
  EXPECT_TRUE(GradMode::is_enabled());
  EXPECT_TRUE((x * 2).requires_grad());
  {
    InferenceMode guard;
    EXPECT_FALSE((x * 2).requires_grad());
    EXPECT_TRUE(InferenceMode::is_enabled());
  }
}

TEST(AutogradEngine, HooksSeeAndReplaceGradients) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 2;
  Tensor seen;
  y.register_hook([&](const Tensor& g) { seen = g.clone(); });
  y.register_hook([](const Tensor& g) { return g * 10; });
  y.sum().backward();
  expect_values(seen, {1.0, 1.0});
  expect_values(x.grad(), {20.0, 20.0});
}

TEST(AutogradEngine, LeafHooksAndPostAccumulateHooks) {
  Tensor x = leaf({1.0});
  x.register_hook([](const Tensor& g) { return g * 3; });
  int calls = 0;
  x.register_post_accumulate_grad_hook([&](const Tensor& p) {
    ++calls;
    expect_values(p.grad(), {6.0});
  });
  (x * 2).sum().backward();
  EXPECT_EQ(calls, 1);
}

TEST(AutogradEngine, RetainGrad) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 3;
  y.retain_grad();
  EXPECT_TRUE(y.retains_grad());
  (y * y).sum().backward();
  expect_values(y.grad(), {6.0, 12.0});
}

TEST(AutogradEngine, DetachBreaksTheGraph) {
  Tensor x = leaf({1.0});
  Tensor y = (x * 2).detach();
  EXPECT_FALSE(y.requires_grad());
  Tensor z = x * 2;
  z.detach_();
  EXPECT_FALSE(z.requires_grad());
  EXPECT_TRUE(z.is_leaf());
}

TEST(AutogradEngine, InPlaceOnLeafIsRefused) {
  Tensor x = leaf({1.0});
  EXPECT_THROW(x.add_(1), ValueError);
  {
    NoGradGuard guard;
    x.add_(1);  // allowed without grad mode (optimizer steps)
  }
  expect_values(x.detach(), {2.0});
}

TEST(AutogradEngine, InPlaceOnNonLeafRecords) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 2;
  y.mul_(x);  // y = 2x^2
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  y.sum().backward();
  expect_values(x.grad(), {4.0, 8.0});
}

TEST(AutogradEngine, ModifiedSavedTensorIsDetected) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 2;
  Tensor z = y * y;  // saves y
  y.add_(1);
  try {
    z.sum().backward();
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("modified by an inplace operation"), std::string::npos) << msg;
    EXPECT_NE(msg.find("version 1; expected version 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MulBackward0"), std::string::npos) << msg;
  }
}

TEST(AutogradEngine, SavedOutputGivesCorrectSecondDerivative) {
  Tensor x = leaf({0.5});
  Tensor y = x.exp();  // saves its result
  variable_list g = autograd::grad({y.sum()}, {x}, {}, std::nullopt, true);
  variable_list gg = autograd::grad({g[0].sum()}, {x});
  expect_values(gg[0], {std::exp(0.5)});
}

TEST(AutogradEngine, AnomalyModeNamesTheForwardOp) {
  autograd::DetectAnomalyGuard guard;
  Tensor x = leaf({0.0});
  Tensor y = x.sqrt();  // d/dx sqrt at 0 = inf
  try {
    y.sum().backward();
    FAIL() << "expected an error";
  } catch (const ValueError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("SqrtBackward0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'sqrt'"), std::string::npos) << msg;
  }
}

// Note [Anomaly traces]: a node made by a backward that was itself made by a backward names both
// parents, also with many nodes of anomaly mode alive (the parent table is a hash map).
TEST(AutogradEngine, AnomalyTracesNameEveryParent) {
  autograd::DetectAnomalyGuard guard;
  std::vector<std::string> warnings;
  WarningHandler previous =
      set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  Tensor x = leaf({0.0});
  variable_list alive;  // second-order graphs kept alive: many (child, parent) pairs at once
  for (int i = 0; i < 200; ++i) {
    Tensor w = leaf({1.0 + i});
    alive.push_back(autograd::grad({(w * w * w).sum()}, {w}, {}, true, true)[0]);
  }
  Tensor y = x.pow(2.5);
  Tensor g1 = autograd::grad({y.sum()}, {x}, {}, true, true)[0];   // 2.5 x^1.5
  Tensor g2 = autograd::grad({g1.sum()}, {x}, {}, true, true)[0];  // 3.75 x^0.5
  alive.clear();
  std::string error = ::brasa::testing::thrown_message(
      [&] { autograd::grad({g2}, {x}, {tensor(std::vector<double>{0.0}, kDouble)}); });
  set_warning_handler(std::move(previous));
  EXPECT_NE(error.find("nan"), std::string::npos) << error;
  // The failing node, the node of g1's graph whose backward made it, and y's node behind that.
  ASSERT_GE(warnings.size(), 3u) << ::testing::PrintToString(warnings);
  EXPECT_NE(warnings[0].find("Traceback of forward call that caused the error"), std::string::npos);
  for (size_t i = 1; i < warnings.size(); ++i)
    EXPECT_NE(warnings[i].find("induced the previous calculation"), std::string::npos)
        << warnings[i];
  EXPECT_NE(warnings.back().find("PowBackward0"), std::string::npos) << warnings.back();
  EXPECT_NE(warnings.back().find("'pow'"), std::string::npos) << warnings.back();
}

TEST(AutogradEngine, RequiresGradOnlyForFloats) {
  Tensor i = tensor(std::vector<int64_t>{1, 2});
  EXPECT_THROW(i.requires_grad_(), TypeError);
  Tensor y = leaf({1.0}) * 2;
  EXPECT_THROW(y.requires_grad_(false), ValueError);
}

}  // namespace
}  // namespace brasa
