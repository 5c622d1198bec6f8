#pragma once
// <torch/nn/options/loss.h>: forwards to the brasa headers that declare its names.

#include "brasa/nn/functional/ctc_loss.h"
#include "brasa/nn/functional/loss.h"
#include "brasa/nn/functional/margin_loss.h"
#include "c10/brasa_namespaces.h"
