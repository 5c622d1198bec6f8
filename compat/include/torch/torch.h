#pragma once
// <torch/torch.h> for programs written against libtorch; see docs/compat.md for what is covered.

#include <iostream>  // libtorch programs use std::cout after including only <torch/torch.h>

#include "torch/all.h"
#include "torch/nn/functional.h"
#include "torch/optim.h"
