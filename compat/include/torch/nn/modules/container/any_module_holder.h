#pragma once
// <torch/nn/modules/container/any_module_holder.h>: forwards to brasa/nn/modules/container/any.h.

#include "brasa/nn/modules/container/any.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/modules/common.h"
#include "torch/nn/pimpl.h"
