#pragma once
// <torch/nn/modules/loss.h>: every loss module (brasa/nn/modules/loss.h, margin_loss.h,
// ctc_loss.h).

#include "brasa/nn/modules/ctc_loss.h"
#include "brasa/nn/modules/loss.h"
#include "brasa/nn/modules/margin_loss.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
