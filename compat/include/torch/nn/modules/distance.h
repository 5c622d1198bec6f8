#pragma once
// <torch/nn/modules/distance.h>: forwards to brasa/nn/modules/distance.h.

#include "brasa/nn/modules/distance.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
