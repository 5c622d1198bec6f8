#pragma once
// <torch/nn/options/fold.h>: forwards to brasa/nn/functional/fold.h.

#include "brasa/nn/functional/fold.h"
#include "c10/brasa_namespaces.h"
