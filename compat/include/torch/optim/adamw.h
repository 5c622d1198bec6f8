#pragma once
// <torch/optim/adamw.h>: forwards to brasa's optimizers.

#include "torch/optim.h"
