#pragma once
// <torch/nn/modules/container/parameterdict.h>: forwards to
// brasa/nn/modules/container/parameterlist.h.

#include "brasa/nn/modules/container/parameterlist.h"
#include "c10/brasa_namespaces.h"
#include "torch/nn/pimpl.h"
