#pragma once
// <torch/nn/modules/adaptive.h>: forwards to brasa/nn/modules/adaptive.h.

#include "brasa/nn/modules/adaptive.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
