#pragma once
// <torch/nn/modules/normalization.h>: forwards to brasa/nn/modules/normalization.h.

#include "brasa/nn/modules/normalization.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
