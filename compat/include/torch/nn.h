#pragma once
// <torch/nn.h>: torch::nn (modules, containers, init, utils, functional) is brasa::nn.

#include "brasa/nn/nn.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/functional.h"
#include "torch/nn/modules/common.h"
#include "torch/nn/pimpl.h"
