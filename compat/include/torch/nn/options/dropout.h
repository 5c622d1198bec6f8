#pragma once
// <torch/nn/options/dropout.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/modules/dropout.h"
#include "c10/brasa_namespaces.h"
