#pragma once
// libtorch's dispatcher test helpers (callOp, callOpUnboxed, makeStack) call operators that a
// test defined with TORCH_LIBRARY, which brasa does not support (<torch/library.h>); a use of them
// stays a compile error naming them. The header exists so that a test file that includes it for
// some of its tests compiles the others.

#include "torch/library.h"
