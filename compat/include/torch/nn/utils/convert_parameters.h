#pragma once
// <torch/nn/utils/convert_parameters.h>: forwards to brasa/nn/utils/convert_parameters.h.

#include "brasa/nn/utils/convert_parameters.h"
#include "c10/brasa_namespaces.h"
