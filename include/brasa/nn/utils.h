#pragma once
// torch::nn::utils: gradient clipping and parameter/vector conversion.

#include "brasa/nn/utils/clip_grad.h"
#include "brasa/nn/utils/convert_parameters.h"
