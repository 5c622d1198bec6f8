#pragma once
// <torch/optim/rmsprop.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
