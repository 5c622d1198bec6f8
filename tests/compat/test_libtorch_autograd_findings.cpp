// Autograd behaviours that libtorch's own test programs (test/cpp/api) rely on, spelled as they
// spell them: the cases where compiling those programs against brasa gave different answers.
// Expected values are libtorch 1.13's documented behaviour (checked against PyTorch 1.13).

#include <ATen/NativeFunctions.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/throws_with.h"

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::Function;
using torch::autograd::variable_list;

// A forward that writes its input through the data pointer and says so with mark_dirty.
struct WriteFirst : public Function<WriteFirst> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor v) {
    v.data_ptr<float>()[0] = 2;
    ctx->mark_dirty({v});
    return v;
  }
  static variable_list backward(AutogradContext*, variable_list grads) { return {grads[0] * 2}; }
};

TEST(LibtorchAutograd, MarkDirtyBumpsTheVersion) {
  auto x = torch::randn({5, 5}, torch::requires_grad()).clone();
  auto before = x._version();
  auto out = WriteFirst::apply(x);
  EXPECT_GE(out._version(), before + 1);
  EXPECT_EQ(x._version(), out._version());
  EXPECT_EQ(out.data_ptr<float>()[0], 2.0f);
  out.sum().backward();
  // Without grad the dirty input is still bumped (libtorch bumps whenever the outputs are wrapped).
  auto plain = torch::zeros({3});
  auto v0 = plain._version();
  WriteFirst::apply(plain);
  EXPECT_EQ(plain._version(), v0 + 1);
}

TEST(LibtorchAutograd, VersionStartsAtZero) {
  auto x = torch::ones(3);
  EXPECT_EQ(x._version(), 0u);
  x.mul_(2);
  EXPECT_EQ(x._version(), 1u);
  x.add_(1);
  EXPECT_EQ(x._version(), 2u);
  EXPECT_EQ(torch::empty({2})._version(), 0u);
  EXPECT_EQ(torch::tensor({1.0, 2.0})._version(), 0u);
}

// libtorch's HooksInplaceWithRetainsGrad: hooks registered before the in-place op see the gradient
// of the old value, the one registered after sees the new value's, and .grad is the new value's.
TEST(LibtorchAutograd, HooksInplaceWithRetainsGrad) {
  auto a = torch::ones({5, 5}, torch::requires_grad()).clone();
  int hook1 = 0, hook2 = 0, hook3 = 0;
  a.register_hook([&](torch::Tensor grad) {
    ++hook1;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5}) * 2));
  });
  a.retain_grad();
  a.register_hook([&](torch::Tensor grad) {
    ++hook2;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5}) * 2));
  });
  a.mul_(2);
  a.register_hook([&](torch::Tensor grad) {
    ++hook3;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5})));
  });
  (a + 1).sum().backward();
  EXPECT_EQ(hook1, 1);
  EXPECT_EQ(hook2, 1);
  EXPECT_EQ(hook3, 1);
  ASSERT_TRUE(a.retains_grad());
  EXPECT_TRUE(torch::equal(a.grad(), torch::ones({5, 5})));
}

TEST(LibtorchAutograd, HooksInplaceTwiceWithRetainsGrad) {
  auto a = torch::ones({5, 5}, torch::requires_grad()).clone();
  int hook1 = 0, hook2 = 0, hook3 = 0;
  a.register_hook([&](torch::Tensor grad) {
    ++hook1;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5}) * 4));
  });
  a.retain_grad();
  a.register_hook([&](torch::Tensor grad) {
    ++hook2;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5}) * 4));
  });
  a.mul_(2);
  a.mul_(2);
  a.register_hook([&](torch::Tensor grad) {
    ++hook3;
    EXPECT_TRUE(torch::equal(grad, torch::ones({5, 5})));
  });
  (a + 1).sum().backward();
  EXPECT_EQ(hook1, 1);
  EXPECT_EQ(hook2, 1);
  EXPECT_EQ(hook3, 1);
  ASSERT_TRUE(a.retains_grad());
  EXPECT_TRUE(torch::equal(a.grad(), torch::ones({5, 5})));
}

// A hook that changes the gradient changes what retain_grad keeps (the hook runs first).
TEST(LibtorchAutograd, RetainedGradSeesHookResult) {
  auto x = torch::ones({3}, torch::requires_grad());
  auto h = x * 3;
  h.retain_grad();
  h.register_hook([](torch::Tensor grad) { return grad * 10; });
  h.sum().backward();
  EXPECT_TRUE(torch::equal(h.grad(), torch::full({3}, 10.0f)));
  EXPECT_TRUE(torch::equal(x.grad(), torch::full({3}, 30.0f)));
}

// libtorch's CustomFunctionWithTensorList: every tensor of an at::TensorList argument is an input.
struct CloneAll : public Function<CloneAll> {
  static variable_list forward(AutogradContext* ctx, torch::TensorList tensors) {
    variable_list out;
    for (const torch::Tensor& t : tensors) out.push_back(t.clone());
    ctx->saved_data["n"] = static_cast<int64_t>(tensors.size());
    return out;
  }
  static variable_list backward(AutogradContext*, variable_list grads) { return grads; }
};

TEST(LibtorchAutograd, CustomFunctionWithTensorList) {
  auto x = torch::randn({5, 5}, torch::requires_grad());
  auto y = torch::randn({5, 5}, torch::requires_grad());
  variable_list variables = {x, y};
  torch::TensorList tensors = variables;
  auto outs = CloneAll::apply(tensors);
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_TRUE(outs[0].requires_grad());
  EXPECT_TRUE(outs[1].requires_grad());
  ASSERT_TRUE(outs[0].grad_fn() != nullptr);
  (outs[0] * 2 + outs[1] * 3).sum().backward();
  EXPECT_TRUE(torch::equal(x.grad(), torch::full({5, 5}, 2.0f)));
  EXPECT_TRUE(torch::equal(y.grad(), torch::full({5, 5}, 3.0f)));
}

// A list followed by a non-tensor argument: one gradient per tensor of the list, then one (an
// undefined one) for the scalar, as libtorch counts them.
struct ScaleAll : public Function<ScaleAll> {
  static variable_list forward(AutogradContext* ctx, torch::TensorList tensors, double c) {
    ctx->saved_data["c"] = c;
    variable_list out;
    for (const torch::Tensor& t : tensors) out.push_back(t * c);
    return out;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    double c = ctx->saved_data["c"].toDouble();
    return {grads[0] * c, grads[1] * c * 10, torch::Tensor()};
  }
};

TEST(LibtorchAutograd, CustomFunctionWithTensorListAndScalar) {
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = torch::ones({2}, torch::requires_grad());
  variable_list variables = {x, y};
  auto outs = ScaleAll::apply(torch::TensorList(variables), 2.0);
  ASSERT_EQ(outs.size(), 2u);
  (outs[0] + outs[1]).sum().backward();
  EXPECT_TRUE(torch::equal(x.grad(), torch::full({2}, 2.0f)));
  EXPECT_TRUE(torch::equal(y.grad(), torch::full({2}, 20.0f)));
}

// libtorch's TestInferenceTensorCreation and friends: what InferenceMode creates is an inference
// tensor (factories, functional ops, views of inference tensors), whatever requires_grad says.
TEST(LibtorchAutograd, TensorsCreatedInInferenceModeAreInferenceTensors) {
  torch::Tensor outside = torch::ones({1, 2, 3});
  EXPECT_FALSE(outside.is_inference());
  torch::Tensor made, sum, view;
  {
    c10::InferenceMode guard;
    made = torch::ones({1, 2, 3});
    EXPECT_TRUE(made.is_inference());
    EXPECT_FALSE(made.requires_grad());
    auto tmp = torch::ones({1, 2, 3}).set_requires_grad(true);
    EXPECT_TRUE(tmp.requires_grad());
    EXPECT_TRUE(tmp.is_inference());
    sum = made + made;
    EXPECT_TRUE(sum.is_inference());
    EXPECT_TRUE(torch::randn({2}).is_inference());
    EXPECT_TRUE(torch::tensor({1.0, 2.0}).is_inference());
    view = made.view({6});
    EXPECT_TRUE(view.is_inference());
    // A functional op on a normal tensor inside InferenceMode gives an inference tensor too.
    EXPECT_TRUE((outside * 2).is_inference());
  }
  EXPECT_TRUE(made.is_inference());
  // Outside: functional ops on inference tensors give normal tensors; views stay inference.
  EXPECT_FALSE((made * 2).is_inference());
  EXPECT_TRUE(made.view({6}).is_inference());
  EXPECT_FALSE(torch::ones({2}).is_inference());
  {
    c10::InferenceMode off(false);
    EXPECT_FALSE(torch::ones({2}).is_inference());
  }
}

TEST(LibtorchAutograd, InplaceOnInferenceTensorOutsideInferenceModeThrows) {
  torch::Tensor t;
  {
    c10::InferenceMode guard;
    t = torch::ones({2});
    t.add_(1);  // allowed inside
  }
  EXPECT_THROW(t.add_(1), c10::Error);
  EXPECT_TRUE(torch::equal(t, torch::full({2}, 2.0f)));
  // A clone is a normal tensor.
  torch::Tensor c = t.clone();
  EXPECT_FALSE(c.is_inference());
  c.add_(1);
  EXPECT_TRUE(torch::equal(c, torch::full({2}, 3.0f)));
}

TEST(LibtorchAutograd, InferenceTensorCannotBeSavedForBackward) {
  torch::Tensor t;
  {
    c10::InferenceMode guard;
    t = torch::ones({2});
  }
  torch::Tensor w = torch::ones({2}, torch::requires_grad());
  EXPECT_THROW((void)(t * w), c10::Error);  // mul saves t for w's gradient
  torch::Tensor s = t + w;                  // add saves nothing: allowed, as in libtorch
  s.sum().backward();
  EXPECT_TRUE(torch::equal(w.grad(), torch::ones({2})));
  torch::Tensor ok = t.clone() * w;
  EXPECT_TRUE(ok.requires_grad());
}

// libtorch's DifferentiableViewMeta: a view answers requires_grad() with its base's, also when
// it was made with grad mode off or the base started requiring grad after the view was taken.
TEST(LibtorchAutograd, ViewOfGradRequiringTensorRequiresGrad) {
  auto x = torch::ones({3}, torch::requires_grad());
  torch::Tensor v;
  {
    torch::NoGradGuard no_grad;
    v = x.view({3});
  }
  EXPECT_TRUE(v.requires_grad());
  EXPECT_TRUE(v.is_leaf());
  EXPECT_FALSE(v.grad_fn());
  {
    c10::InferenceMode guard;
    auto w = x.view({3});
    EXPECT_TRUE(w.requires_grad());
    EXPECT_TRUE(w.is_leaf());
    EXPECT_TRUE(w.view({1, 3}).requires_grad());
  }
  auto a = torch::zeros({3});
  auto va = a.slice(0, 0, 2);
  EXPECT_FALSE(va.requires_grad());
  a.mul_(x);
  EXPECT_TRUE(va.requires_grad());
  // A view of a tensor that does not require grad does not.
  EXPECT_FALSE(torch::ones({3}).view({3}).requires_grad());
  // detach() is no differentiable view.
  EXPECT_FALSE(x.detach().requires_grad());
}

// libtorch's inference_mode.cpp: an inference tensor has no autograd keys, so ops on it alone
// record nothing even when it says requires_grad; its views answer for themselves; in place
// outside InferenceMode its own error comes before autograd's leaf check; and requires_grad can
// only be turned on inside InferenceMode.
TEST(LibtorchAutograd, InferenceTensorsRecordNoGraph) {
  torch::Tensor t;
  {
    c10::InferenceMode guard;
    t = torch::ones({1, 2, 3}).set_requires_grad(true);
    EXPECT_TRUE(t.requires_grad());
    EXPECT_FALSE((t * t).requires_grad());
    EXPECT_FALSE(t.view({2, 3}).requires_grad());
  }
  torch::Tensor out = t * t;
  EXPECT_FALSE(out.requires_grad());
  EXPECT_FALSE(out.is_inference());
  EXPECT_FALSE(t.view({2, 3}).requires_grad());
  try {
    t.mul_(1);
    ADD_FAILURE() << "no error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "Inplace update to inference tensor outside InferenceMode is not allowed"),
              std::string::npos)
        << e.what();
  }
  torch::Tensor u;
  {
    c10::InferenceMode guard;
    u = torch::ones({2});
  }
  u.set_requires_grad(false);
  EXPECT_THROW(u.set_requires_grad(true), c10::Error);
  // A normal tensor that requires grad still records with an inference tensor beside it, when
  // the op saves nothing (add).
  auto s = torch::ones({2}, torch::requires_grad());
  EXPECT_TRUE(u.add(s).requires_grad());
}

// libtorch's TestInferenceTensorIn{Inference,Normal}ModeViewOp: a view of an inference tensor,
// made in InferenceMode or outside, is an inference tensor but no view (is_view() false, no
// _base()), and a leaf; a view of a normal tensor made in InferenceMode stays a view.
TEST(LibtorchAutograd, ViewOfInferenceTensorIsNoView) {
  torch::Tensor c, normal = torch::ones({2, 3});
  {
    c10::InferenceMode guard;
    c = torch::ones({2, 3}).set_requires_grad(true);
    torch::Tensor v = c.view({3, 2});
    EXPECT_TRUE(v.is_inference());
    EXPECT_FALSE(v.is_view());
    EXPECT_FALSE(v._base().defined());
    EXPECT_FALSE(v.transpose(0, 1).is_view());
    EXPECT_TRUE(normal.view({6}).is_view());
    EXPECT_FALSE(normal.view({6}).is_inference());
  }
  torch::Tensor out = c.view({6});
  EXPECT_TRUE(out.is_inference());
  EXPECT_FALSE(out.is_view());
  EXPECT_FALSE(out.requires_grad());
  EXPECT_TRUE(out.is_leaf());
  EXPECT_TRUE(normal.view({6}).is_view());
}

// libtorch's autograd.cpp: DetectAnomalyGuard(check_nan=false) keeps anomaly mode on without the
// NaN check; needs_input_grad takes ranges of inputs; make_variable and UndefinedGrad exist.
TEST(LibtorchAutograd, AnomalyModeWithoutNanCheck) {
  auto nan_grad = [] {
    auto x = torch::tensor({0.0}, torch::requires_grad());
    auto gr = torch::autograd::grad({x.pow(1.5)}, {x}, {}, true, true);
    return torch::autograd::grad({gr[0]}, {x}, {torch::tensor({0.0})});
  };
  {
    torch::autograd::DetectAnomalyGuard guard;
    EXPECT_TRUE(torch::autograd::AnomalyMode::should_check_nan());
    EXPECT_THROW(nan_grad(), c10::Error);
    {
      torch::autograd::DetectAnomalyGuard no_nan_check(/*check_nan=*/false);
      EXPECT_TRUE(torch::autograd::AnomalyMode::is_enabled());
      EXPECT_FALSE(torch::autograd::AnomalyMode::should_check_nan());
      EXPECT_TRUE(std::isnan(nan_grad()[0].item<double>()));
    }
    EXPECT_TRUE(torch::autograd::AnomalyMode::should_check_nan());
  }
  EXPECT_FALSE(torch::autograd::AnomalyMode::is_enabled());
}

struct NeedsRanges : public Function<NeedsRanges> {
  static torch::Tensor forward(AutogradContext*, torch::Tensor a, torch::Tensor b) { return a * b; }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    using torch::autograd::IndexRange;
    ctx->saved_data["first"] = ctx->needs_input_grad({IndexRange{0, 1}});
    ctx->saved_data["second"] = ctx->needs_input_grad({IndexRange{1, 2}});
    ctx->saved_data["both"] = ctx->needs_input_grad({IndexRange{0, 1}, IndexRange{1, 2}});
    seen = {ctx->saved_data["first"].toBool(), ctx->saved_data["second"].toBool(),
            ctx->saved_data["both"].toBool()};
    return {g[0], g[0]};
  }
  static std::vector<bool> seen;
};
std::vector<bool> NeedsRanges::seen;

TEST(LibtorchAutograd, NeedsInputGradOfRanges) {
  auto a = torch::ones({2}, torch::requires_grad());
  auto b = torch::ones({2});
  NeedsRanges::apply(a, b).sum().backward();
  EXPECT_EQ(NeedsRanges::seen, (std::vector<bool>{true, false, true}));
}

TEST(LibtorchAutograd, MakeVariableAndUndefinedGrad) {
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = x * 2;
  auto v = torch::autograd::make_variable(y.tensor_data(), true);
  EXPECT_TRUE(v.requires_grad());
  EXPECT_TRUE(v.is_leaf());
  EXPECT_EQ(v.data_ptr(), y.data_ptr());
  EXPECT_FALSE(torch::autograd::make_variable(y.tensor_data()).requires_grad());

  // UndefinedGrad's backward sends an undefined gradient: x gets none through it.
  auto out = torch::autograd::UndefinedGrad().apply({x * 3})[0];
  EXPECT_TRUE(torch::equal(out, torch::full({2}, 3.0)));
  EXPECT_TRUE(out.requires_grad());
  out.sum().backward();
  EXPECT_FALSE(x.grad().defined() && x.grad().ne(0).any().item<bool>());
  EXPECT_TRUE(at::native::is_nonzero(torch::tensor({2.0})));
  EXPECT_FALSE(at::native::is_nonzero(torch::tensor(0)));
}

// libtorch's GraphTaskTrimEdges: in grad({out}, {x}), y's gradient is not needed, and a custom
// Function's backward is told so.
struct ReportsNeeds : public Function<ReportsNeeds> {
  static torch::Tensor forward(AutogradContext*, torch::Tensor a, torch::Tensor b) { return a * b; }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    seen = {ctx->needs_input_grad(0), ctx->needs_input_grad(1)};
    return {g[0], g[0]};
  }
  static std::vector<bool> seen;
};
std::vector<bool> ReportsNeeds::seen;

TEST(LibtorchAutograd, NeedsInputGradFollowsTheGraphTask) {
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = torch::ones({2}, torch::requires_grad());
  torch::autograd::grad({ReportsNeeds::apply(x, y).sum()}, {x});
  EXPECT_EQ(ReportsNeeds::seen, (std::vector<bool>{true, false}));
  torch::autograd::grad({ReportsNeeds::apply(x, y).sum()}, {y});
  EXPECT_EQ(ReportsNeeds::seen, (std::vector<bool>{false, true}));
  ReportsNeeds::apply(x, y).sum().backward();
  EXPECT_EQ(ReportsNeeds::seen, (std::vector<bool>{true, true}));
}

// libtorch's DeepReentrant: a backward that calls backward() 3000 levels deep finishes.
struct Reenter : public Function<Reenter> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor x) {
    {
      torch::AutoGradMode enable(true);
      ctx->saved_data["x"] = torch::autograd::make_variable(x.tensor_data(), true) - 1;
    }
    return ctx->saved_data["x"].toTensor().detach();
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    if (!at::native::is_nonzero(ctx->saved_data["x"].toTensor())) return g;
    torch::AutoGradMode enable(true);
    apply(ctx->saved_data["x"].toTensor()).sum().backward();
    return g;
  }
};

TEST(LibtorchAutograd, DeepReentrantBackward) {
  auto v = torch::tensor({3000.0}, torch::requires_grad());
  Reenter::apply(v).sum().backward();
  EXPECT_TRUE(v.grad().defined());
}

struct GradWarnings : c10::WarningHandler {
  void process(const c10::SourceLocation&, const std::string& msg, const bool) override {
    text += msg;
  }
  std::string text;
};

TEST(LibtorchAutograd, LibtorchsWordsInAutogradErrors) {
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = torch::ones({2}, torch::requires_grad());
  auto z = (x * 2).sum();
  auto message = [](auto&& f) { return ::brasa::testing::thrown_message(f); };
  EXPECT_NE(message([&] {
              torch::autograd::grad({z}, {x, y}, {}, true);
            }).find("Set allow_unused=True"),
            std::string::npos);
  EXPECT_NE(
      message([&] { torch::autograd::grad({z}, {}); }).find("grad requires non-empty inputs."),
      std::string::npos);
  EXPECT_NE(message([&] {
              z.backward({}, true, false, std::vector<torch::Tensor>{});
            }).find("cannot be empty"),
            std::string::npos);
  EXPECT_NE(message([&] { x.remove_hook(3); }).find("Invalid index"), std::string::npos);
  // Reading .grad of a non-leaf that does not retain it warns.
  auto h = x * 3;
  GradWarnings warnings;
  {
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    EXPECT_FALSE(h.grad().defined());
    EXPECT_FALSE(x.grad().defined());
  }
  EXPECT_NE(warnings.text.find("is not a leaf"), std::string::npos);
  const size_t length = warnings.text.size();
  h.retain_grad();
  {
    c10::WarningUtils::WarningHandlerGuard guard(&warnings);
    EXPECT_FALSE(h.grad().defined());
  }
  EXPECT_EQ(warnings.text.size(), length);
}

}  // namespace
