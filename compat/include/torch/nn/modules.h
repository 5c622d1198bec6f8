#pragma once
// <torch/nn/modules.h>: every torch::nn module (brasa::nn).

#include "brasa/nn/modules.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/modules/common.h"
#include "torch/nn/pimpl.h"
