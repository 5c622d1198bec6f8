#pragma once
// <torch/nn/functional/embedding.h>: forwards to brasa/nn/functional/embedding.h.

#include "brasa/nn/functional/embedding.h"
#include "c10/brasa_namespaces.h"
