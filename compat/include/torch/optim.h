#pragma once
// <torch/optim.h>: torch::optim names brasa::optim (torch:: nominates ::brasa, see
// c10/brasa_namespaces.h).

#include "brasa/optim.h"
#include "c10/brasa_namespaces.h"
