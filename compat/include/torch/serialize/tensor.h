#pragma once
// <torch/serialize/tensor.h>: see <torch/serialize.h>.

#include "torch/serialize.h"
