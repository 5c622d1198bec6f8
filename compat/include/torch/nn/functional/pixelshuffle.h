#pragma once
// <torch/nn/functional/pixelshuffle.h>: forwards to brasa/nn/functional/pixelshuffle.h.

#include "brasa/nn/functional/pixelshuffle.h"
#include "c10/brasa_namespaces.h"
