#pragma once
// <torch/nn/module.h>: torch::nn::Module is brasa::nn::Module.

#include "brasa/nn/module.h"
#include "c10/brasa_namespaces.h"
