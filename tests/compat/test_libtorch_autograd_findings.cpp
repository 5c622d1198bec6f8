// Autograd behaviours that libtorch's own test programs (test/cpp/api) rely on, spelled as they
// spell them: the cases where compiling those programs against brasa gave different answers.
// Expected values are libtorch 1.13's documented behaviour (checked against PyTorch 1.13).

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

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

}  // namespace
