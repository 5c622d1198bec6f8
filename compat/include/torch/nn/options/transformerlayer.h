#pragma once
// <torch/nn/options/transformerlayer.h>: forwards to brasa/nn/modules/transformer.h.

#include "brasa/nn/modules/transformer.h"
#include "c10/brasa_namespaces.h"
