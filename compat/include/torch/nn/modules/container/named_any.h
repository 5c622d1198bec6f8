#pragma once
// <torch/nn/modules/container/named_any.h>: forwards to brasa/nn/modules/container/named_any.h.

#include "brasa/nn/modules/container/named_any.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
