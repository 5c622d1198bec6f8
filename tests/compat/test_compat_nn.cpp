// A libtorch-style model, written as against libtorch's C++ frontend, must compile against the
// compat headers and train.
#include <gtest/gtest.h>
#include <torch/nn/module.h>
#include <torch/torch.h>

#include <sstream>

namespace {

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 64));
    fc2 = register_module("fc2", torch::nn::Linear(torch::nn::LinearOptions(64, 10).bias(false)));
    head = register_module(
        "head", torch::nn::Sequential(torch::nn::ReLU(), torch::nn::Dropout(0.1),
                                      torch::nn::Functional(torch::log_softmax, 1, c10::nullopt)));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.reshape({x.size(0), 784})));
    return head->forward(fc2(x));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::Sequential head{nullptr};
};

struct TwoLayerImpl : torch::nn::Cloneable<TwoLayerImpl> {
  explicit TwoLayerImpl(int64_t hidden) : hidden_(hidden) { reset(); }
  void reset() override {
    a = register_module("a", torch::nn::Linear(4, hidden_));
    b = register_module("b", torch::nn::Linear(hidden_, 1));
  }
  torch::Tensor forward(const torch::Tensor& x) { return b(torch::tanh(a(x))); }
  int64_t hidden_;
  torch::nn::Linear a{nullptr}, b{nullptr};
};
TORCH_MODULE(TwoLayer);

}  // namespace

TEST(CompatNN, LibtorchStyleNetTrains) {
  torch::manual_seed(0);
  auto net = std::make_shared<Net>();
  auto x = torch::randn({8, 1, 28, 28});
  auto target = torch::randint(0, 10, {8}, torch::kLong);
  net->eval();
  auto before = torch::nn::functional::nll_loss(net->forward(x), target).item<double>();
  for (int step = 0; step < 20; ++step) {
    net->zero_grad();
    auto loss = torch::nn::functional::nll_loss(net->forward(x), target);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.sub_(0.1 * p.grad());
  }
  auto after = torch::nn::functional::nll_loss(net->forward(x), target).item<double>();
  EXPECT_LT(after, before);
  for (const auto& item : net->named_parameters())
    EXPECT_TRUE(item.key() == "fc1.weight" || item.key() == "fc1.bias" ||
                item.key() == "fc2.weight");
  std::ostringstream s;
  s << *net;
  EXPECT_NE(s.str().find("(fc1): torch::nn::Linear(in_features=784, out_features=64, bias=true)"),
            std::string::npos)
      << s.str();
}

TEST(CompatNN, TorchModuleMacroAndClone) {
  TwoLayer model(8);
  torch::nn::init::xavier_uniform_(model->a->weight);
  auto copy = std::dynamic_pointer_cast<TwoLayerImpl>(model->clone());
  auto x = torch::randn({3, 4});
  EXPECT_TRUE(torch::allclose(model(x), copy->forward(x)));
  EXPECT_FALSE(copy->a->weight.is_same(model->a->weight));
  torch::OrderedDict<std::string, torch::Tensor> params = model->named_parameters();
  EXPECT_EQ(params.size(), 4u);
  model->to(torch::kFloat64);
  EXPECT_EQ(model->a->weight.dtype(), torch::kFloat64);
}
