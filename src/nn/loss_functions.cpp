// at:: loss functions: libtorch's positional arguments turned into nn::functional's options.

#include "brasa/nn/loss_functions.h"

#include "brasa/core/error.h"
#include "brasa/nn/functional/loss.h"

namespace brasa {
namespace {

namespace F = nn::functional;

nn::reduction_t reduction_of(int64_t reduction, const char* op) {
  switch (reduction) {
    case Reduction::None: return kNone;
    case Reduction::Mean: return kMean;
    case Reduction::Sum: return kSum;
    default:
      BRASA_CHECK(false, op,
                  ": expected reduction at::Reduction::None (0), Mean (1) or Sum (2), got ",
                  reduction);
  }
  return kMean;
}

Tensor or_undefined(const std::optional<Tensor>& t) { return t.value_or(Tensor()); }

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return F::mse_loss(self, target, reduction_of(reduction, "mse_loss"));
}

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return F::l1_loss(self, target, reduction_of(reduction, "l1_loss"));
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  return F::smooth_l1_loss(
      self, target,
      F::SmoothL1LossFuncOptions(reduction_of(reduction, "smooth_l1_loss")).beta(beta));
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  return F::huber_loss(self, target,
                       F::HuberLossFuncOptions(reduction_of(reduction, "huber_loss")).delta(delta));
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                int64_t reduction, int64_t ignore_index) {
  return F::nll_loss(self, target,
                     F::NLLLossFuncOptions(reduction_of(reduction, "nll_loss"))
                         .weight(or_undefined(weight))
                         .ignore_index(ignore_index));
}

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                  int64_t reduction, int64_t ignore_index) {
  BRASA_CHECK(self.dim() == 4, "nll_loss2d: expected an input of 4 dims [N, C, H, W], got ",
              self.sizes());
  return F::nll_loss(self, target,
                     F::NLLLossFuncOptions(reduction_of(reduction, "nll_loss2d"))
                         .weight(or_undefined(weight))
                         .ignore_index(ignore_index));
}

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index, double label_smoothing) {
  return F::cross_entropy(self, target,
                          F::CrossEntropyFuncOptions(reduction_of(reduction, "cross_entropy_loss"))
                              .weight(or_undefined(weight))
                              .ignore_index(ignore_index)
                              .label_smoothing(label_smoothing));
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight, int64_t reduction) {
  // aten's form pairs the squeezed input with the squeezed target (libtorch 1.13's own optimizer
  // tests pass an [N, 1] input with an [N] target); F::binary_cross_entropy keeps its strict
  // size check. The loss keeps the input's shape.
  const bool same_squeezed = target.defined() && self.defined() && target.sizes() != self.sizes() &&
                             target.squeeze().sizes() == self.squeeze().sizes();
  return F::binary_cross_entropy(
      self, same_squeezed ? target.reshape(self.sizes()) : target,
      F::BinaryCrossEntropyFuncOptions(reduction_of(reduction, "binary_cross_entropy"))
          .weight(or_undefined(weight)));
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight,
                                        int64_t reduction) {
  return F::binary_cross_entropy_with_logits(
      self, target,
      F::BinaryCrossEntropyWithLogitsFuncOptions(
          reduction_of(reduction, "binary_cross_entropy_with_logits"))
          .weight(or_undefined(weight))
          .pos_weight(or_undefined(pos_weight)));
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  F::KLDivFuncOptions options;
  nn::visit([&](auto r) { options.reduction(r); }, reduction_of(reduction, "kl_div"));
  return F::kl_div(self, target, options.log_target(log_target));
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           double margin, int64_t reduction) {
  return F::margin_ranking_loss(
      input1, input2, target,
      F::MarginRankingLossFuncOptions(reduction_of(reduction, "margin_ranking_loss"))
          .margin(margin));
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             double margin, int64_t reduction) {
  return F::cosine_embedding_loss(
      input1, input2, target,
      F::CosineEmbeddingLossFuncOptions(reduction_of(reduction, "cosine_embedding_loss"))
          .margin(margin));
}

}  // namespace brasa
