#pragma once
// <torch/nn/functional/pooling.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/pooling.h"
#include "brasa/nn/functional/unpooling.h"
#include "c10/brasa_namespaces.h"
