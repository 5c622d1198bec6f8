#pragma once
// <torch/nn/options/upsampling.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/upsampling.h"
#include "brasa/nn/modules/upsampling.h"
#include "c10/brasa_namespaces.h"
