#pragma once
// Loss modules (torch::nn::MSELoss, ...): forward(input, target) calls the torch::nn::functional
// loss with the module's options; shapes, dtypes and errors as the functional.

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/loss.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

#define BRASA_LOSS_MODULE(Name)                                                        \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {                          \
   public:                                                                             \
    explicit Name##Impl(Name##Options options_ = {}) : options(std::move(options_)) {} \
    void reset() override {}                                                           \
    void pretty_print(std::ostream& stream) const override;                            \
    Tensor forward(const Tensor& input, const Tensor& target);                         \
    Name##Options options;                                                             \
  };                                                                                   \
  BRASA_MODULE(Name)

BRASA_LOSS_MODULE(MSELoss);
BRASA_LOSS_MODULE(L1Loss);
BRASA_LOSS_MODULE(SmoothL1Loss);
BRASA_LOSS_MODULE(HuberLoss);
BRASA_LOSS_MODULE(NLLLoss);
BRASA_LOSS_MODULE(CrossEntropyLoss);
BRASA_LOSS_MODULE(BCELoss);
BRASA_LOSS_MODULE(BCEWithLogitsLoss);
BRASA_LOSS_MODULE(KLDivLoss);
#undef BRASA_LOSS_MODULE

/// Losses of two inputs and a target of 1 / -1.
class BRASA_API MarginRankingLossImpl : public Cloneable<MarginRankingLossImpl> {
 public:
  explicit MarginRankingLossImpl(MarginRankingLossOptions options_ = {})
      : options(std::move(options_)) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target);
  MarginRankingLossOptions options;
};
BRASA_MODULE(MarginRankingLoss);

class BRASA_API CosineEmbeddingLossImpl : public Cloneable<CosineEmbeddingLossImpl> {
 public:
  explicit CosineEmbeddingLossImpl(CosineEmbeddingLossOptions options_ = {})
      : options(std::move(options_)) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target);
  CosineEmbeddingLossOptions options;
};
BRASA_MODULE(CosineEmbeddingLoss);

}  // namespace brasa::nn
