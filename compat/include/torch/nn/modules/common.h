#pragma once
// <torch/nn/modules/common.h>: FORWARD_HAS_DEFAULT_ARGS, with which a module tells AnyModule (and
// Sequential) its forward's default arguments (Note [Forward default arguments]).

#include "brasa/nn/modules/container/any_value.h"
#include "c10/brasa_namespaces.h"

#define FORWARD_HAS_DEFAULT_ARGS(...) BRASA_FORWARD_HAS_DEFAULT_ARGS(__VA_ARGS__)
