#pragma once
// libtorch's FunctionsManual.h declares the hand-written derivative formulas of its generated
// autograd (torch::autograd::generated::details), internals that brasa does not expose: its
// derivatives live beside each op (docs/contributing.md). What programs reach through this header
// besides them is the ATen API, which it includes as libtorch's does; a formula used by name stays
// a compile error naming it.

#include "ATen/ATen.h"
#include "ATen/NativeFunctions.h"
#include "torch/csrc/autograd/functions/basic_ops.h"
