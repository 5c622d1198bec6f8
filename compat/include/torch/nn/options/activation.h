#pragma once
// <torch/nn/options/activation.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/activation.h"
#include "brasa/nn/functional/attention.h"
#include "brasa/nn/modules/activation.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "c10/brasa_namespaces.h"
