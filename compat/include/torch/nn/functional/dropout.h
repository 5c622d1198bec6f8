#pragma once
// <torch/nn/functional/dropout.h>: forwards to brasa/nn/functional/dropout.h.

#include "brasa/nn/functional/dropout.h"
#include "c10/brasa_namespaces.h"
