#pragma once
// <torch/nn/options/batchnorm.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/modules/batchnorm.h"
#include "c10/brasa_namespaces.h"
