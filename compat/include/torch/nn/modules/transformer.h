#pragma once
// <torch/nn/modules/transformer.h>: forwards to brasa/nn/modules/transformer.h.

#include "brasa/nn/modules/transformer.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
