#pragma once
// torch::nn::utils: gradient clipping, parameter/vector conversion and rnn packing.

#include "brasa/nn/utils/clip_grad.h"
#include "brasa/nn/utils/convert_parameters.h"
#include "brasa/nn/utils/rnn.h"
