#pragma once
// <torch/nn/modules/conv.h>: forwards to brasa/nn/modules/conv.h.

#include "brasa/nn/modules/conv.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
