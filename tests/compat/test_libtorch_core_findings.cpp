// Tensor methods and c10 switches that libtorch's test programs use, spelled as they spell them:
// backward's `inputs` as libtorch's optional TensorList, cuda() without a CUDA backend,
// c10's warn-always flag over brasa's once-per-process warnings, view(ScalarType), and anomaly
// mode's forward traces. Expected values are PyTorch 1.13's (computed with its Python API).

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/throws_with.h"

namespace {

struct CoreFindingsWarnings : c10::WarningHandler {
  void process(const c10::SourceLocation&, const std::string& msg, const bool) override {
    messages.push_back(msg);
  }
  size_t count(const std::string& part) const {
    size_t n = 0;
    for (const std::string& m : messages) n += m.find(part) != std::string::npos;
    return n;
  }
  std::vector<std::string> messages;
};

// libtorch's CustomAutogradTest.BackwardWithInputs: a braced list is the inputs, and only they
// accumulate.
TEST(LibtorchCore, BackwardInputsTakeABracedList) {
  auto x = torch::randn({5, 5}, torch::requires_grad());
  auto y = torch::randn({5, 5}, torch::requires_grad());
  auto z = x * x + x * y + y * y;
  z.backward(torch::ones({5, 5}), false, false, {x});
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * x + y));
  EXPECT_FALSE(y.grad().defined());
  auto w = (x * y).sum();
  w.backward({}, true, false, {x, y});  // two tensors; `{}` is the implicit gradient
  EXPECT_TRUE(torch::allclose(y.grad(), x));
  std::vector<torch::Tensor> only_y{y};
  w.backward({}, false, false, only_y);  // a vector
  EXPECT_TRUE(torch::allclose(y.grad(), 2 * x));
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * x + 2 * y));
  auto v = (x * 2).sum();
  v.backward({}, false, false, {});  // `{}`: no list, every leaf accumulates (as libtorch)
  EXPECT_TRUE(torch::allclose(x.grad(), 2 * x + 2 * y + 2));
  auto u = (x * 2).sum();
  EXPECT_THROWS_CONTAINING(c10::Error, u.backward({}, false, false, std::vector<torch::Tensor>{}),
                           "cannot be empty");
}

TEST(LibtorchCore, CudaWithoutACudaBackendIsATypedError) {
  auto x = torch::ones({2, 3});
  EXPECT_THROW(x.cuda(), c10::NotImplementedError);
  EXPECT_THROWS_CONTAINING(c10::Error, x.cuda(), "cuda: brasa has no CUDA backend");
  EXPECT_THROWS_CONTAINING(c10::Error, x.to(torch::kCUDA), "brasa has no CUDA backend");
  EXPECT_THROWS_CONTAINING(c10::Error,
                           torch::ones({2}, torch::TensorOptions().device(torch::kCUDA)),
                           "brasa has no CUDA backend");
}

// c10::WarningUtils::set_warnAlways: brasa's once-per-process warnings (here: casting complex to
// real) come every time while it is on (Note [Warn always]).
TEST(LibtorchCore, WarnAlwaysRepeatsOnceOnlyWarnings) {
  auto c = torch::ones({2}, torch::kComplexFloat);
  auto r = torch::zeros({2});
  const std::string text = "discards the imaginary part";
  CoreFindingsWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  r.copy_(c);  // the first in this process may warn; then never again
  r.copy_(c);
  const size_t before = warnings.count(text);
  r.copy_(c);
  EXPECT_EQ(warnings.count(text), before);
  {
    c10::WarningUtils::WarnAlways always(true);
    EXPECT_TRUE(c10::WarningUtils::get_warnAlways());
    EXPECT_TRUE(brasa::get_warn_always());
    r.copy_(c);
    r.copy_(c);
    EXPECT_EQ(warnings.count(text), before + 2);
  }
  EXPECT_FALSE(c10::Warning::get_warnAlways());
  r.copy_(c);
  EXPECT_EQ(warnings.count(text), before + 2);
  c10::WarningUtils::set_warnAlways(true);
  r.copy_(c);
  c10::WarningUtils::set_warnAlways(false);
  EXPECT_EQ(warnings.count(text), before + 3);
}

// libtorch's CustomAutogradTest.BackwardWithCreateGraphWarns.
TEST(LibtorchCore, BackwardWithCreateGraphWarns) {
  c10::Warning::WarnAlways always(true);
  auto x = torch::randn({5, 5}).set_requires_grad(true);
  auto z = x * x;
  const std::string text = "Using backward() with create_graph=True";
  CoreFindingsWarnings warnings;
  c10::WarningUtils::WarningHandlerGuard guard(&warnings);
  z.backward(torch::ones({5, 5}), c10::nullopt, true);
  EXPECT_EQ(warnings.count(text), 1u);
  torch::autograd::backward({z}, {torch::ones({5, 5})}, c10::nullopt, true);
  EXPECT_EQ(warnings.count(text), 2u);
  torch::autograd::grad({z}, {x}, {torch::ones({5, 5})}, true, true);  // grad(): no .grad cycle
  EXPECT_EQ(warnings.count(text), 2u);
  x.mutable_grad().reset();
}

TEST(LibtorchCore, ViewAsDtypeReadsTheSameBytes) {
  auto x = torch::tensor({{1.0f, -2.0f, 0.5f, 3.0f}, {4.0f, 5.0f, 6.0f, 7.0f}});
  auto i = x.view(torch::kInt);
  EXPECT_EQ(i.dtype(), torch::kInt);
  EXPECT_EQ(i.sizes(), x.sizes());
  EXPECT_TRUE(torch::equal(i, torch::tensor({{1065353216, -1073741824, 1056964608, 1077936128},
                                             {1082130432, 1084227584, 1086324736, 1088421888}},
                                            torch::kInt)));
  EXPECT_EQ(i.data_ptr(), x.data_ptr());  // shares the storage
  auto h = x.view(torch::kShort);         // narrower: the last dim grows
  EXPECT_EQ(h.sizes(), torch::IntArrayRef({2, 8}));
  EXPECT_EQ(h.strides(), torch::IntArrayRef({8, 1}));
  EXPECT_TRUE(
      torch::equal(h[0], torch::tensor({0, 16256, 0, -16384, 0, 16128, 0, 16448}, torch::kShort)));
  auto d = x.view(torch::kDouble);  // wider: the last dim shrinks
  EXPECT_EQ(d.sizes(), torch::IntArrayRef({2, 2}));
  EXPECT_EQ(d.strides(), torch::IntArrayRef({2, 1}));
  EXPECT_DOUBLE_EQ(d[1][1].item<double>(), 32768.007904052734);
  EXPECT_EQ(x.t().view(torch::kInt).strides(), torch::IntArrayRef({1, 4}));  // same size: any
  auto sliced = torch::ones({3, 4}, torch::kDouble).slice(1, 1, 3).view(torch::kShort);
  EXPECT_EQ(sliced.sizes(), torch::IntArrayRef({3, 8}));
  EXPECT_EQ(sliced.strides(), torch::IntArrayRef({16, 1}));
  EXPECT_EQ(sliced.storage_offset(), 4);
  EXPECT_EQ(torch::tensor(2.0f).view(torch::kInt).item<int>(), 1073741824);  // 0-d, same size
  EXPECT_EQ(torch::ones({0, 4}).view(torch::kDouble).sizes(), torch::IntArrayRef({0, 2}));
  x.view(torch::kInt).add_(1);  // writes through
  EXPECT_EQ(x[0][0].item<float>(), std::nextafter(1.0f, 2.0f));
  // Not differentiable: the result never requires grad.
  auto r = torch::ones({4}, torch::requires_grad());
  EXPECT_FALSE(r.view(torch::kInt).requires_grad());
  EXPECT_FALSE(r.view(torch::kFloat).requires_grad());
  // view({...}) keeps meaning sizes.
  EXPECT_EQ(x.view({8}).sizes(), torch::IntArrayRef({8}));
  EXPECT_EQ(x.view(-1).sizes(), torch::IntArrayRef({8}));
}

TEST(LibtorchCore, ViewAsDtypeErrorsAreLibtorchs) {
  EXPECT_THROWS_CONTAINING(
      c10::Error, torch::tensor(1.0f).view(torch::kDouble),
      "self.dim() cannot be 0 to view Float as Double (different element sizes)");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::ones({4, 2}).t().view(torch::kDouble),
                           "self.stride(-1) must be 1 to view Float as Double (different element "
                           "sizes), but got 2");
  EXPECT_THROWS_CONTAINING(
      c10::Error, torch::ones({2, 3}).view(torch::kDouble),
      "self.size(-1) must be divisible by 2 to view Float as Double (different "
      "element sizes), but got 3");
  EXPECT_THROWS_CONTAINING(c10::Error, torch::ones({8}).slice(0, 1).view(torch::kDouble),
                           "self.size(-1) must be divisible by 2");
  EXPECT_THROWS_CONTAINING(c10::Error,
                           torch::ones({9}).slice(0, 1, 9).slice(0, 0, 6).view(torch::kDouble),
                           "self.storage_offset() must be divisible by 2 to view Float as Double "
                           "(different element sizes), but got 1");
  EXPECT_THROWS_CONTAINING(
      c10::Error, torch::ones({3, 5}).slice(1, 0, 4).view(torch::kDouble),
      "self.stride(0) must be divisible by 2 to view Float as Double (different "
      "element sizes), but got 5");
}

// libtorch's AutogradAPITests.AnomalyMode: before an error in backward propagates, anomaly mode
// warns with the forward call behind the failing node and, for a node made by an earlier
// backward, with the one behind that (Note [Anomaly traces]).
TEST(LibtorchCore, AnomalyModeWarnsWithTheForwardTrace) {
  torch::autograd::DetectAnomalyGuard detect_anomaly;
  {
    CoreFindingsWarnings warnings;
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    auto x = torch::tensor({5.0}, torch::requires_grad());
    auto y = x * x;
    auto z = y * y;
    y += 1;
    const std::string error = brasa::testing::thrown_message([&] { z.backward(); });  // once
    EXPECT_NE(error.find("inplace"), std::string::npos) << error;
    ASSERT_EQ(warnings.messages.size(), 1u) << ::testing::PrintToString(warnings.messages);
    EXPECT_NE(warnings.messages[0].find("Traceback of forward call that caused the error"),
              std::string::npos);
    EXPECT_NE(warnings.messages[0].find("'mul'"), std::string::npos);
  }
  auto x = torch::tensor({0.0}, torch::requires_grad());
  auto y = x.pow(1.5);
  auto gr = torch::autograd::grad({y}, {x}, {}, true, true);
  CoreFindingsWarnings warnings;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    const std::string error = brasa::testing::thrown_message(
        [&] { torch::autograd::grad({gr[0]}, {x}, {torch::tensor({0.0})}); });
    EXPECT_NE(error.find("returned nan"), std::string::npos) << error;
  }
  ASSERT_EQ(warnings.messages.size(), 2u) << ::testing::PrintToString(warnings.messages);
  EXPECT_NE(warnings.messages[0].find("Traceback of forward call that caused the error"),
            std::string::npos);
  EXPECT_NE(
      warnings.messages[1].find("Traceback of forward call that induced the previous calculation"),
      std::string::npos);
  EXPECT_NE(warnings.messages[1].find("PowBackward0"), std::string::npos);
  {
    torch::autograd::DetectAnomalyGuard no_nan_check(/*check_nan=*/false);
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    auto again = torch::autograd::grad({x.pow(1.5)}, {x}, {}, true, true);
    EXPECT_TRUE(torch::autograd::grad({again[0]}, {x}, {torch::tensor({0.0})})[0]
                    .isnan()
                    .all()
                    .item<bool>());
  }
  EXPECT_EQ(warnings.messages.size(), 2u);
}

}  // namespace
