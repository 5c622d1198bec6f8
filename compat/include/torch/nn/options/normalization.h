#pragma once
// <torch/nn/options/normalization.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/modules/local_response_norm.h"
#include "brasa/nn/modules/normalization.h"
#include "c10/brasa_namespaces.h"
