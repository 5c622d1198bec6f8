#pragma once
// torch::nn::CTCLoss: forward(log_probs, targets, input_lengths, target_lengths) calls F::ctc_loss
// with the module's options.

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/ctc_loss.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API CTCLossImpl : public Cloneable<CTCLossImpl> {
 public:
  explicit CTCLossImpl(CTCLossOptions options_ = {}) : options(std::move(options_)) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                 const Tensor& target_lengths);
  CTCLossOptions options;
};
BRASA_MODULE(CTCLoss);

}  // namespace brasa::nn
