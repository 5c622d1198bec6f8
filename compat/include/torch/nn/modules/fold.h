#pragma once
// <torch/nn/modules/fold.h>: forwards to brasa/nn/modules/fold.h.

#include "brasa/nn/modules/fold.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
