#pragma once
// <torch/nn/modules/instancenorm.h>: forwards to brasa/nn/modules/batchnorm.h.

#include "brasa/nn/modules/batchnorm.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
