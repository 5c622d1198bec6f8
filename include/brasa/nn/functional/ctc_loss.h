#pragma once
// F::ctc_loss and CTCLossOptions (torch::nn::functional spellings) over at::ctc_loss
// (brasa/nn/ctc_loss_functions.h, which documents shapes and errors).

#include <cstdint>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa::nn {

struct BRASA_API CTCLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(int64_t, blank) = 0;
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(bool, zero_infinity) = false;
};

namespace functional {

using CTCLossFuncOptions = CTCLossOptions;

/// log_probs [T, N, C], targets, and the lengths as integral tensors of N values.
BRASA_API Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets,
                          const Tensor& input_lengths, const Tensor& target_lengths,
                          const CTCLossFuncOptions& options = {});

}  // namespace functional
}  // namespace brasa::nn
