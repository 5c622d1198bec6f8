#pragma once
// <torch/optim/optimizer.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
