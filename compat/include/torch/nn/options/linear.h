#pragma once
// <torch/nn/options/linear.h>: forwards to brasa/nn/modules/linear.h.

#include "brasa/nn/modules/linear.h"
#include "c10/brasa_namespaces.h"
