#pragma once
// <torch/nn/functional/batchnorm.h>: forwards to brasa/nn/functional/normalization.h.

#include "brasa/nn/functional/normalization.h"
#include "c10/brasa_namespaces.h"
