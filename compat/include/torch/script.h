#pragma once
// <torch/script.h>: what libtorch's brings (the tensor API, grad and inference modes, custom
// autograd functions) plus torch::jit::load and torch::jit::Module, which throw at run time:
// brasa has no TorchScript (Note [No TorchScript] in torch/csrc/jit/serialization/import.h).

#include "torch/csrc/jit/serialization/import.h"
#include "torch/torch.h"
