#pragma once
// <torch/nn/functional/dropout.h>: forwards to brasa/nn/functional/dropout.h, plus the positional
// forms libtorch keeps in F::detail (which its F:: functions unpack their options into).

#include "brasa/nn/functional/dropout.h"
#include "c10/brasa_namespaces.h"

namespace brasa::nn::functional::detail {
/// F::alpha_dropout with libtorch's positional arguments (p, training, inplace).
inline Tensor alpha_dropout(const Tensor& input, double p, bool training, bool inplace) {
  return functional::alpha_dropout(
      input, AlphaDropoutFuncOptions().p(p).training(training).inplace(inplace));
}
}  // namespace brasa::nn::functional::detail
