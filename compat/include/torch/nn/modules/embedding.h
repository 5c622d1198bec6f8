#pragma once
// <torch/nn/modules/embedding.h>: forwards to brasa/nn/modules/embedding.h.

#include "brasa/nn/modules/embedding.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
