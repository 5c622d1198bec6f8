#pragma once
// <torch/optim/lbfgs.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
