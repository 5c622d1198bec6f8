#pragma once
// <torch/optim/adam.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
