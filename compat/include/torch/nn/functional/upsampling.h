#pragma once
// <torch/nn/functional/upsampling.h>: forwards to brasa/nn/functional/upsampling.h.

#include "brasa/nn/functional/upsampling.h"
#include "c10/brasa_namespaces.h"
