#pragma once
// <torch/nn/options/pixelshuffle.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/pixelshuffle.h"
#include "brasa/nn/modules/pixelshuffle.h"
#include "c10/brasa_namespaces.h"
