#pragma once
// <torch/data.h>: torch::data is brasa::data (Note [libtorch namespaces]).

#include "brasa/data.h"
#include "torch/types.h"
