#pragma once
// <torch/nn/modules/pooling.h>: forwards to brasa/nn/modules/pooling.h and unpooling.h
// (MaxUnpool, FractionalMaxPool).

#include "brasa/nn/modules/pooling.h"
#include "brasa/nn/modules/unpooling.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
