#pragma once
// <torch/nn/modules/container/functional.h>: forwards to brasa/nn/modules/container/functional.h.

#include "brasa/nn/modules/container/functional.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
