#pragma once
// <torch/nn/modules/pooling.h>: forwards to brasa/nn/modules/pooling.h.

#include "brasa/nn/modules/pooling.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
