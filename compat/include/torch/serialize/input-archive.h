#pragma once
// <torch/serialize/input-archive.h>: see <torch/serialize.h>.

#include "torch/serialize.h"
