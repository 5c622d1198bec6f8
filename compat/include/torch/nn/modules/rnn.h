#pragma once
// <torch/nn/modules/rnn.h>: forwards to brasa/nn/modules/rnn.h.

#include "brasa/nn/modules/rnn.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
