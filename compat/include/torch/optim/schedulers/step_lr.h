#pragma once
// <torch/optim/schedulers/step_lr.h>: forwards to brasa's learning-rate schedulers.

#include "torch/optim.h"
