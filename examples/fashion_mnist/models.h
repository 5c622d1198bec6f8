#pragma once
// The two models of the Fashion-MNIST job, written exactly as for libtorch.

#include <torch/torch.h>

/// conv 32 -> pool -> conv 64 -> pool -> fc 128 -> fc 10 (3x3 convolutions, padding 1).
struct CnnImpl : torch::nn::Module {
  CnnImpl()
      : conv1(torch::nn::Conv2dOptions(1, 32, 3).padding(1)),
        conv2(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
        fc1(64 * 7 * 7, 128),
        fc2(128, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    x = torch::relu(fc1->forward(x.flatten(1)));
    return fc2->forward(x);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Cnn);

/// 784-512-512-10 with ReLU.
struct MlpImpl : torch::nn::Module {
  MlpImpl() : fc1(784, 512), fc2(512, 512), fc3(512, 10) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("fc3", fc3);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.flatten(1)));
    x = torch::relu(fc2->forward(x));
    return fc3->forward(x);
  }
  torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Mlp);
