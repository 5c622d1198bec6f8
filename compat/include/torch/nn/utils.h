#pragma once
// <torch/nn/utils.h>: torch::nn::utils is brasa::nn::utils.

#include "brasa/nn/utils.h"
#include "c10/brasa_namespaces.h"
