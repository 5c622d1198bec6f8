#pragma once
// <torch/nn/functional/conv.h>: forwards to brasa/nn/functional/conv.h.

#include "brasa/nn/functional/conv.h"
#include "c10/brasa_namespaces.h"
