// libtorch-style autograd code, unchanged: custom Functions, grad(), hooks, guards.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <type_traits>

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The libtorch documentation's shape of a custom function.
struct LinearFunction : public torch::autograd::Function<LinearFunction> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor input, torch::Tensor weight,
                               torch::Tensor bias = torch::Tensor()) {
    ctx->save_for_backward({input, weight, bias});
    auto output = input.mm(weight.t());
    if (bias.defined()) output += bias.unsqueeze(0).expand_as(output);
    return output;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto input = saved[0], weight = saved[1], bias = saved[2];
    auto grad_output = grad_outputs[0];
    auto grad_input = grad_output.mm(weight);
    auto grad_weight = grad_output.t().mm(input);
    auto grad_bias = torch::Tensor();
    if (bias.defined()) grad_bias = grad_output.sum(0);
    return {grad_input, grad_weight, grad_bias};
  }
};

struct MulConstant : public torch::autograd::Function<MulConstant> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor tensor, double constant) {
    ctx->saved_data["constant"] = constant;
    return tensor * constant;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    EXPECT_TRUE(ctx->needs_input_grad(0));
    return {grad_outputs[0] * ctx->saved_data["constant"].toDouble(), torch::Tensor()};
  }
};

TEST(CompatAutograd, CustomFunctionsMatchBuiltInGradients) {
  auto x = torch::randn({2, 3}, torch::dtype(torch::kDouble).requires_grad(true));
  auto weight = torch::randn({4, 3}, torch::dtype(torch::kDouble).requires_grad(true));
  auto bias = torch::randn({4}, torch::dtype(torch::kDouble).requires_grad(true));
  auto y = LinearFunction::apply(x, weight, bias);
  y.sum().backward();
  auto gx = x.grad().clone(), gw = weight.grad().clone(), gb = bias.grad().clone();
  x.mutable_grad().reset();
  weight.mutable_grad().reset();
  bias.mutable_grad().reset();
  torch::nn::functional::linear(x, weight, bias).sum().backward();
  EXPECT_TRUE(torch::allclose(gx, x.grad()));
  EXPECT_TRUE(torch::allclose(gw, weight.grad()));
  EXPECT_TRUE(torch::allclose(gb, bias.grad()));

  auto z = torch::ones({3}, torch::requires_grad());
  MulConstant::apply(z, 5.5).sum().backward();
  EXPECT_TRUE(torch::allclose(z.grad(), torch::full({3}, 5.5)));
}

// pytorch/examples' spelling: tensor_list (libtorch's other name of variable_list), a forward
// with two outputs, and a backward that takes its list by const reference.
struct SplitScale : public torch::autograd::Function<SplitScale> {
  static torch::autograd::tensor_list forward(AutogradContext* ctx, const torch::Tensor& x) {
    ctx->save_for_backward({x});
    return {x * 2, x * x};
  }
  static torch::autograd::tensor_list backward(AutogradContext* ctx,
                                               const torch::autograd::tensor_list& grads) {
    auto x = ctx->get_saved_variables()[0];
    return {grads[0] * 2 + grads[1] * 2 * x};
  }
};

TEST(CompatAutograd, TensorListFunctions) {
  static_assert(std::is_same_v<torch::autograd::tensor_list, torch::autograd::variable_list>);
  auto x = torch::tensor({1.0, -3.0}, torch::requires_grad());
  torch::autograd::tensor_list outs = SplitScale::apply(x);
  ASSERT_EQ(outs.size(), 2u);
  (outs[0].sum() + outs[1].sum()).backward();
  EXPECT_TRUE(torch::allclose(x.grad(), torch::tensor({4.0, -4.0})));  // 2 + 2x
}

TEST(CompatAutograd, GradHooksAndGuards) {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = x.pow(2).sum();
  auto g = torch::autograd::grad({y}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true);
  EXPECT_TRUE(torch::allclose(g[0], torch::tensor({2.0, 4.0})));
  auto gg = torch::autograd::grad({g[0].sum()}, {x});
  EXPECT_TRUE(torch::allclose(gg[0], torch::tensor({2.0, 2.0})));

  int calls = 0;
  auto h = x * 3;
  h.register_hook([&](torch::Tensor grad) { ++calls; });
  h.sum().backward();
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(torch::allclose(x.grad(), torch::tensor({3.0, 3.0})));
  EXPECT_EQ(h.grad_fn()->name(), "MulBackward1");  // mul.Scalar, as in libtorch
  {
    torch::NoGradGuard no_grad;
    EXPECT_FALSE((x * 2).requires_grad());
    EXPECT_FALSE(torch::autograd::GradMode::is_enabled());
  }
  {
    torch::autograd::DetectAnomalyGuard anomaly;
    EXPECT_TRUE(torch::autograd::AnomalyMode::is_enabled());
  }
  c10::InferenceMode guard;
  EXPECT_FALSE((x * 2).requires_grad());
}

}  // namespace
