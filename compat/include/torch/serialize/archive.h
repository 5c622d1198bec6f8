#pragma once
// <torch/serialize/archive.h>: see <torch/serialize.h>.

#include "torch/serialize.h"
