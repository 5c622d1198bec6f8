#pragma once
// <torch/nn/functional/padding.h>: forwards to brasa/nn/functional/padding.h.

#include "brasa/nn/functional/padding.h"
#include "c10/brasa_namespaces.h"
