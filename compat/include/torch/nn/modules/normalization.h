#pragma once
// <torch/nn/modules/normalization.h>: forwards to brasa/nn/modules/normalization.h and
// local_response_norm.h (LocalResponseNorm, CrossMapLRN2d).

#include "brasa/nn/modules/local_response_norm.h"
#include "brasa/nn/modules/normalization.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
