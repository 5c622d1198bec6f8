// Loss modules over the torch::nn::functional losses.

#include "brasa/nn/modules/loss.h"

namespace brasa::nn {
namespace F = functional;

#define BRASA_DEFINE_LOSS(Name, call)                                                     \
  void Name##Impl::pretty_print(std::ostream& s) const { s << "torch::nn::" #Name "()"; } \
  Tensor Name##Impl::forward(const Tensor& input, const Tensor& target) {                 \
    return F::call(input, target, options);                                               \
  }

BRASA_DEFINE_LOSS(MSELoss, mse_loss)
BRASA_DEFINE_LOSS(L1Loss, l1_loss)
BRASA_DEFINE_LOSS(SmoothL1Loss, smooth_l1_loss)
BRASA_DEFINE_LOSS(HuberLoss, huber_loss)
BRASA_DEFINE_LOSS(NLLLoss, nll_loss)
BRASA_DEFINE_LOSS(CrossEntropyLoss, cross_entropy)
BRASA_DEFINE_LOSS(BCELoss, binary_cross_entropy)
BRASA_DEFINE_LOSS(BCEWithLogitsLoss, binary_cross_entropy_with_logits)
BRASA_DEFINE_LOSS(KLDivLoss, kl_div)
#undef BRASA_DEFINE_LOSS

void MarginRankingLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::MarginRankingLoss()";
}
Tensor MarginRankingLossImpl::forward(const Tensor& input1, const Tensor& input2,
                                      const Tensor& target) {
  return F::margin_ranking_loss(input1, input2, target, options);
}

void CosineEmbeddingLossImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::CosineEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor CosineEmbeddingLossImpl::forward(const Tensor& input1, const Tensor& input2,
                                        const Tensor& target) {
  return F::cosine_embedding_loss(input1, input2, target, options);
}

}  // namespace brasa::nn
