#pragma once
// <torch/nn/modules/container/modulelist.h>: forwards to brasa/nn/modules/container/modulelist.h.

#include "brasa/nn/modules/container/modulelist.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
