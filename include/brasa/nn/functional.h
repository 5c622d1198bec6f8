#pragma once
// torch::nn::functional: activations, attention, normalisation, losses, dropout, embeddings,
// pooling, resampling and sampling grids,
// with libtorch's option structs (`F::leaky_relu(x,
// F::LeakyReLUFuncOptions().negative_slope(0.2))`).

#include "brasa/nn/functional/activation.h"
#include "brasa/nn/functional/attention.h"
#include "brasa/nn/functional/conv.h"
#include "brasa/nn/functional/ctc_loss.h"
#include "brasa/nn/functional/distance.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/functional/embedding.h"
#include "brasa/nn/functional/fold.h"
#include "brasa/nn/functional/loss.h"
#include "brasa/nn/functional/margin_loss.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/functional/padding.h"
#include "brasa/nn/functional/pixelshuffle.h"
#include "brasa/nn/functional/pooling.h"
#include "brasa/nn/functional/unpooling.h"
#include "brasa/nn/functional/upsampling.h"
#include "brasa/nn/functional/vision.h"
#include "brasa/nn/native_dropout_functions.h"
#include "brasa/nn/reduction.h"
