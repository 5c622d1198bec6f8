#pragma once
// <torch/nn/modules/container/moduledict.h>: forwards to brasa/nn/modules/container/moduledict.h.

#include "brasa/nn/modules/container/moduledict.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
