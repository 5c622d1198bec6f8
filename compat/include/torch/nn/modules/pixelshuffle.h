#pragma once
// <torch/nn/modules/pixelshuffle.h>: forwards to brasa/nn/modules/pixelshuffle.h.

#include "brasa/nn/modules/pixelshuffle.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
