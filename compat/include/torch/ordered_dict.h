#pragma once
// <torch/ordered_dict.h>: torch::OrderedDict is brasa::OrderedDict.

#include "brasa/nn/ordered_dict.h"
#include "c10/brasa_namespaces.h"
