#pragma once
// <torch/nn/modules/container/any_value.h>: forwards to brasa/nn/modules/container/any_value.h.

#include "brasa/nn/modules/container/any_value.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/modules/common.h"
#include "torch/nn/pimpl.h"
