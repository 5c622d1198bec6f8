#pragma once
// <torch/nn/modules/dropout.h>: forwards to brasa/nn/modules/dropout.h.

#include "brasa/nn/modules/dropout.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
