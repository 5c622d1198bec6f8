#pragma once
// <torch/nn/functional.h>: torch::nn::functional names brasa::nn::functional (torch:: nominates
// ::brasa, see c10/brasa_namespaces.h), and torch::kMean/kSum/kNone name brasa's reductions.

#include "brasa/nn/functional.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/functional/dropout.h"
