#pragma once
// Every nn module (torch::nn::Linear, torch::nn::Sequential, ...).

#include "brasa/nn/modules/activation.h"
#include "brasa/nn/modules/batchnorm.h"
#include "brasa/nn/modules/container.h"
#include "brasa/nn/modules/conv.h"
#include "brasa/nn/modules/dropout.h"
#include "brasa/nn/modules/embedding.h"
#include "brasa/nn/modules/instantiations.h"  // last: Note [Module instantiations]
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/modules/loss.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "brasa/nn/modules/normalization.h"
#include "brasa/nn/modules/pixelshuffle.h"
#include "brasa/nn/modules/pooling.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/nn/modules/transformer.h"
#include "brasa/nn/modules/upsampling.h"
