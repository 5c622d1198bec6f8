#pragma once
// <torch/nn/modules/container/sequential.h>: forwards to brasa/nn/modules/container/sequential.h.

#include "brasa/nn/modules/container/sequential.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
