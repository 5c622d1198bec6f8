#pragma once
// <torch/nn/cloneable.h>: torch::nn::Cloneable is brasa::nn::Cloneable.

#include "brasa/nn/cloneable.h"
#include "c10/brasa_namespaces.h"
