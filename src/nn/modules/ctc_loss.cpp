// CTCLoss module and F::ctc_loss over at::ctc_loss.

#include "brasa/nn/modules/ctc_loss.h"

#include "brasa/nn/ctc_loss_functions.h"
#include "brasa/nn/functional/margin_loss.h"

namespace brasa::nn {
namespace functional {

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, const CTCLossFuncOptions& options) {
  return brasa::ctc_loss(log_probs, targets, input_lengths, target_lengths, options.blank(),
                         nn::detail::reduction_enum(options.reduction()), options.zero_infinity());
}

}  // namespace functional

void CTCLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::CTCLoss()"; }

Tensor CTCLossImpl::forward(const Tensor& log_probs, const Tensor& targets,
                            const Tensor& input_lengths, const Tensor& target_lengths) {
  return functional::ctc_loss(log_probs, targets, input_lengths, target_lengths, options);
}

}  // namespace brasa::nn
