#pragma once
// <torch/nn/utils/clip_grad.h>: forwards to brasa/nn/utils/clip_grad.h.

#include "brasa/nn/utils/clip_grad.h"
#include "c10/brasa_namespaces.h"
