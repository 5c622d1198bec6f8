#pragma once
// <torch/torch.h> for programs written against libtorch; see docs/compat.md for what is covered.

#include "torch/all.h"
