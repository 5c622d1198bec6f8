#pragma once
// <torch/nn/options/vision.h>: forwards to brasa/nn/functional/vision.h.

#include "brasa/nn/functional/vision.h"
#include "c10/brasa_namespaces.h"
