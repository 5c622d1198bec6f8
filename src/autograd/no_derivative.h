#pragma once
// The derivative of an op that PyTorch 1.13 does not differentiate either (a backward op, LDL,
// binomial): running it throws NotImplementedError naming the op.

#include "autograd/function_node.h"
#include "brasa/core/error.h"

namespace brasa::autograd {

struct NoDerivative {
  const char* op;
  variable_list operator()(BackwardContext&) const {
    BRASA_CHECK_TYPED(NotImplementedError, false, "the derivative for '", op,
                      "' is not implemented (as in PyTorch 1.13)");
    return {};
  }
};

}  // namespace brasa::autograd
