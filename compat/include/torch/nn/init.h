#pragma once
// <torch/nn/init.h>: torch::nn::init is brasa::nn::init.

#include "brasa/nn/init.h"
#include "c10/brasa_namespaces.h"
