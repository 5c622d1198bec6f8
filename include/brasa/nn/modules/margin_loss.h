#pragma once
// Margin, embedding and Poisson loss modules (torch::nn::SoftMarginLoss, ...): forward calls the
// functional of brasa/nn/functional/margin_loss.h with the module's options; shapes, dtypes and
// errors as the functional.

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/margin_loss.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

/// A loss of (input, target); MultiMarginLoss and MultiLabelSoftMarginLoss register options.weight
/// as the buffer "weight" (listed only when defined), as libtorch.
#define BRASA_MARGIN_LOSS_MODULE(Name)                                                           \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {                                    \
   public:                                                                                       \
    explicit Name##Impl(Name##Options options_ = {}) : options(std::move(options_)) { reset(); } \
    void reset() override;                                                                       \
    void pretty_print(std::ostream& stream) const override;                                      \
    Tensor forward(const Tensor& input, const Tensor& target);                                   \
    Name##Options options;                                                                       \
  };                                                                                             \
  BRASA_MODULE(Name)

BRASA_MARGIN_LOSS_MODULE(HingeEmbeddingLoss);
BRASA_MARGIN_LOSS_MODULE(MultiMarginLoss);
BRASA_MARGIN_LOSS_MODULE(SoftMarginLoss);
BRASA_MARGIN_LOSS_MODULE(MultiLabelMarginLoss);
BRASA_MARGIN_LOSS_MODULE(MultiLabelSoftMarginLoss);
BRASA_MARGIN_LOSS_MODULE(PoissonNLLLoss);
#undef BRASA_MARGIN_LOSS_MODULE

/// Losses of (anchor, positive, negative) triplets.
#define BRASA_TRIPLET_LOSS_MODULE(Name)                                                   \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {                             \
   public:                                                                                \
    explicit Name##Impl(Name##Options options_ = {}) : options(std::move(options_)) {}    \
    void reset() override {}                                                              \
    void pretty_print(std::ostream& stream) const override;                               \
    Tensor forward(const Tensor& anchor, const Tensor& positive, const Tensor& negative); \
    Name##Options options;                                                                \
  };                                                                                      \
  BRASA_MODULE(Name)

BRASA_TRIPLET_LOSS_MODULE(TripletMarginLoss);
BRASA_TRIPLET_LOSS_MODULE(TripletMarginWithDistanceLoss);
#undef BRASA_TRIPLET_LOSS_MODULE

}  // namespace brasa::nn
