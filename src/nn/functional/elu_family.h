#pragma once
// The ELU family shared by F::elu / selu / celu and at::elu (whose scale and input_scale
// F::elu does not take).

#include "brasa/core/tensor.h"

namespace brasa::nn::functional::detail {

/// x > 0 ? scale * x : neg * (exp(x * in_scale) - 1), with PyTorch's EluBackward gradient; written
/// into input (and input returned) when inplace. The caller checks the dtype.
Tensor elu_family(const Tensor& input, const char* op, double scale, double neg, double in_scale,
                  bool inplace);

}  // namespace brasa::nn::functional::detail
