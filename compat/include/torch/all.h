#pragma once
// <torch/all.h>: the parts of libtorch's C++ frontend that brasa provides.

#include "torch/autograd.h"
#include "torch/cuda.h"
#include "torch/data.h"
#include "torch/fft.h"
#include "torch/linalg.h"
#include "torch/nn.h"
#include "torch/optim.h"
#include "torch/ordered_dict.h"
#include "torch/serialize.h"
#include "torch/special.h"
#include "torch/types.h"
#include "torch/utils.h"
