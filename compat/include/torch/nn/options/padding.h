#pragma once
// <torch/nn/options/padding.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/padding.h"
#include "brasa/nn/modules/padding.h"
#include "c10/brasa_namespaces.h"
