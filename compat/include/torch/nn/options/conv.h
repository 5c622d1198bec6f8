#pragma once
// <torch/nn/options/conv.h>: forwards to brasa/nn/functional/conv.h, brasa/nn/modules/conv.h.

#include "brasa/nn/functional/conv.h"
#include "brasa/nn/modules/conv.h"
#include "c10/brasa_namespaces.h"
