// A libtorch program that uses what libtorch newcomers use: the at:: losses and dropout,
// torch::Reduction, AT_ASSERT, std::isnan without <cmath>, assert without <cassert>, torch::str,
// a custom Function over tensor_list.
#include <torch/torch.h>

using namespace torch::autograd;

struct Scale : public Function<Scale> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor x, double k) {
    ctx->saved_data["k"] = k;
    return x * k;
  }
  static tensor_list backward(AutogradContext* ctx, tensor_list grad_outputs) {
    return {grad_outputs[0] * ctx->saved_data["k"].toDouble(), torch::Tensor()};
  }
};

int main() {
  torch::Tensor logits = torch::tensor({{2.0, 0.0}, {0.0, 2.0}}).requires_grad_();
  torch::Tensor target = torch::tensor({0, 1});
  torch::Tensor x = torch::dropout(logits, 0.5, /*train=*/false);
  torch::Tensor loss = torch::nll_loss(torch::log_softmax(x, 1), target, {}, torch::Reduction::Sum);
  AT_ASSERT(!std::isnan(loss.item<float>()));
  assert(loss.numel() == 1);
  Scale::apply(loss, 3.0).backward();
  TORCH_CHECK_EQ(logits.grad().numel(), 4);
  std::cout << torch::str("find_package(Torch): ", "var(1) ")
            << torch::tensor({{1.0, 3.0}}).var(1).item<double>() << " grad " << std::setprecision(4)
            << logits.grad()[0][0].item<double>() << "\n";
  return 0;
}
