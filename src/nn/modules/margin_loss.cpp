// Margin, embedding and Poisson loss modules over their functionals.

#include "brasa/nn/modules/margin_loss.h"

#include "brasa/core/error.h"

namespace brasa::nn {
namespace F = functional;

#define BRASA_DEFINE_MARGIN_LOSS(Name, call)                              \
  Tensor Name##Impl::forward(const Tensor& input, const Tensor& target) { \
    return F::call(input, target, options);                               \
  }

BRASA_DEFINE_MARGIN_LOSS(HingeEmbeddingLoss, hinge_embedding_loss)
BRASA_DEFINE_MARGIN_LOSS(MultiMarginLoss, multi_margin_loss)
BRASA_DEFINE_MARGIN_LOSS(SoftMarginLoss, soft_margin_loss)
BRASA_DEFINE_MARGIN_LOSS(MultiLabelMarginLoss, multilabel_margin_loss)
BRASA_DEFINE_MARGIN_LOSS(MultiLabelSoftMarginLoss, multilabel_soft_margin_loss)
BRASA_DEFINE_MARGIN_LOSS(PoissonNLLLoss, poisson_nll_loss)
#undef BRASA_DEFINE_MARGIN_LOSS

void HingeEmbeddingLossImpl::reset() {}
void HingeEmbeddingLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::HingeEmbeddingLoss(margin=" << options.margin() << ")";
}

void MultiMarginLossImpl::reset() {
  BRASA_CHECK(options.p() == 1 || options.p() == 2,
              "MultiMarginLoss: only p == 1 and p == 2 supported, got ", options.p());
  BRASA_CHECK(!options.weight().defined() || options.weight().dim() == 1,
              "MultiMarginLoss: weight must be one-dimensional, got ", options.weight().sizes());
  register_buffer("weight", options.weight());
}
void MultiMarginLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::MultiMarginLoss(p=" << options.p() << ", margin=" << options.margin()
    << ", weight=" << options.weight()
    << ", reduction=" << detail::reduction_name(options.reduction()) << ")";
}

void SoftMarginLossImpl::reset() {}
void SoftMarginLossImpl::pretty_print(std::ostream& s) const { s << "torch::nn::SoftMarginLoss()"; }

void MultiLabelMarginLossImpl::reset() {}
void MultiLabelMarginLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::MultiLabelMarginLoss()";
}

void MultiLabelSoftMarginLossImpl::reset() { register_buffer("weight", options.weight()); }
void MultiLabelSoftMarginLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::MultiLabelSoftMarginLoss()";
}

void PoissonNLLLossImpl::reset() {}
void PoissonNLLLossImpl::pretty_print(std::ostream& s) const { s << "torch::nn::PoissonNLLLoss()"; }

void TripletMarginLossImpl::pretty_print(std::ostream& s) const {
  s << std::boolalpha << "torch::nn::TripletMarginLoss(margin=" << options.margin()
    << ", p=" << options.p() << ", eps=" << options.eps() << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginLossImpl::forward(const Tensor& anchor, const Tensor& positive,
                                      const Tensor& negative) {
  return F::triplet_margin_loss(anchor, positive, negative, options);
}

void TripletMarginWithDistanceLossImpl::pretty_print(std::ostream& s) const {
  s << std::boolalpha << "torch::nn::TripletMarginWithDistanceLoss(margin=" << options.margin()
    << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginWithDistanceLossImpl::forward(const Tensor& anchor, const Tensor& positive,
                                                  const Tensor& negative) {
  return F::triplet_margin_with_distance_loss(anchor, positive, negative, options);
}

}  // namespace brasa::nn
