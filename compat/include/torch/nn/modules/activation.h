#pragma once
// <torch/nn/modules/activation.h>: forwards to brasa/nn/modules/activation.h.

#include "brasa/nn/modules/activation.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
