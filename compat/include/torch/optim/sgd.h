#pragma once
// <torch/optim/sgd.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
