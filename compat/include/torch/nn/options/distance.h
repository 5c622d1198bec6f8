#pragma once
// <torch/nn/options/distance.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/distance.h"
#include "brasa/nn/functional/normalization.h"
#include "c10/brasa_namespaces.h"
