#pragma once
// <torch/nn/options/adaptive.h>: forwards to brasa/nn/modules/adaptive.h.

#include "brasa/nn/modules/adaptive.h"
#include "c10/brasa_namespaces.h"
