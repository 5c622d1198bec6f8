#pragma once
// <torch/serialize/output-archive.h>: see <torch/serialize.h>.

#include "torch/serialize.h"
