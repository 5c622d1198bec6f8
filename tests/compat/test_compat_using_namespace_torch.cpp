// `using namespace torch;` and then `nn::`, `optim::`, `autograd::`, `data::`... unqualified, the
// way pytorch/examples' dcgan and many libtorch programs are written: every such name must mean
// one entity (Note [libtorch namespaces]). The directive sits in a namespace of its own so that
// it does not reach the other files of this file's unity batch.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <memory>
#include <vector>

namespace using_namespace_torch {

using namespace torch;  // NOLINT: the point of the test

struct GeneratorImpl : nn::Module {
  explicit GeneratorImpl(int noise)
      : conv(nn::ConvTranspose2dOptions(noise, 4, 3).bias(false)), norm(4) {
    register_module("conv", conv);
    register_module("norm", norm);
  }
  Tensor forward(Tensor x) { return torch::relu(norm(conv(x))); }
  nn::ConvTranspose2d conv;
  nn::BatchNorm2d norm;
};
TORCH_MODULE(Generator);

TEST(CompatNamespaces, UsingNamespaceTorchThenNnOptimAutogradData) {
  Generator g(2);
  optim::Adam opt(g->parameters(), optim::AdamOptions(2e-4).betas({0.5, 0.5}));
  auto out = g->forward(torch::ones({1, 2, 1, 1}));
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{1, 4, 3, 3}));
  auto x = torch::ones({2}, requires_grad());
  auto grads = autograd::grad({(x * x).sum()}, {x});
  EXPECT_TRUE(torch::equal(grads[0], torch::full({2}, 2.0)));
  namespace F = nn::functional;
  EXPECT_EQ(F::relu(torch::tensor({-1.0})).item<double>(), 0.0);
  auto data = data::datasets::TensorDataset(torch::zeros({3, 2}));
  EXPECT_EQ(data.size().value(), 3u);
  opt.zero_grad();
}

}  // namespace using_namespace_torch
