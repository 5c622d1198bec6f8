#pragma once
// libtorch's operator registration header: brasa's registration API is <torch/library.h>
// (TORCH_LIBRARY_IMPL for backends; c10::RegisterOperators and defining new ops with TORCH_LIBRARY
// are not provided and stay compile errors).

#include "torch/library.h"
