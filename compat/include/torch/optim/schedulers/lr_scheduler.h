#pragma once
// <torch/optim/schedulers/lr_scheduler.h>: forwards to brasa's learning-rate schedulers.

#include "torch/optim.h"
