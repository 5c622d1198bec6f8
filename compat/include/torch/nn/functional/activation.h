#pragma once
// <torch/nn/functional/activation.h>: forwards to brasa/nn/functional/activation.h.

#include "brasa/nn/functional/activation.h"
#include "c10/brasa_namespaces.h"
