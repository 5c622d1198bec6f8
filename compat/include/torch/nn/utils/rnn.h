#pragma once
// <torch/nn/utils/rnn.h>: torch::nn::utils::rnn (PackedSequence, pack_padded_sequence, ...) is
// brasa::nn::utils::rnn.

#include "brasa/nn/utils/rnn.h"
#include "c10/brasa_namespaces.h"
