#pragma once
// <torch/nn/options/embedding.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/embedding.h"
#include "brasa/nn/modules/embedding.h"
#include "c10/brasa_namespaces.h"
