#pragma once
// <torch/csrc/autograd/InferenceMode.h>: torch::autograd::InferenceMode is brasa's InferenceMode
// (libtorch's alias of c10::InferenceMode).

#include "brasa/dispatch/grad_mode.h"
#include "c10/brasa_namespaces.h"

namespace brasa::autograd {
using InferenceMode = ::brasa::InferenceMode;
}  // namespace brasa::autograd
