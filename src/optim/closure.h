#pragma once
// Runs an optimizer's loss closure with gradient recording on (step() itself runs without).

#include "brasa/autograd/grad_mode.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim::detail {

inline Tensor run_closure(const Optimizer::LossClosure& closure) {
  if (!closure) return {};
  AutoGradMode enable(true);
  return closure();
}

}  // namespace brasa::optim::detail
