#pragma once
// <torch/optim/adagrad.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
