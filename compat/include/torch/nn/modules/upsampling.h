#pragma once
// <torch/nn/modules/upsampling.h>: forwards to brasa/nn/modules/upsampling.h.

#include "brasa/nn/modules/upsampling.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
