#pragma once
// <c10d/Types.hpp>: the spelling of libtorch releases before c10d moved under
// torch/csrc/distributed (pytorch/examples' cpp/distributed uses it); the same header.
#include "torch/csrc/distributed/c10d/Types.hpp"
