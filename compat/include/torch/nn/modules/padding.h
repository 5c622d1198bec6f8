#pragma once
// <torch/nn/modules/padding.h>: forwards to brasa/nn/modules/padding.h.

#include "brasa/nn/modules/padding.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
