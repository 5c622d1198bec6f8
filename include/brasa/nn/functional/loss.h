#pragma once
// Loss functionals (torch::nn::functional spellings) with their option structs; `reduction` is
// kNone (elementwise losses), kMean or kSum. Floating inputs only (TypeError otherwise). Inputs
// and targets broadcast like pointwise ops where PyTorch lets them (ValueError when they don't);
// the classification losses check shapes exactly (ValueError) and class indices (IndexError
// naming the op and the value, before any input is read).

#include <cstdint>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa::nn {

// Like libtorch, the reduction tags convert directly (`L1Loss(torch::kSum)`).
#define BRASA_LOSS_REDUCTION_CTORS(Name)                                  \
  Name() = default;                                                       \
  Name(reduction_t reduction) : reduction_(reduction) {}     /* NOLINT */ \
  Name(enumtype::kNone reduction) : reduction_(reduction) {} /* NOLINT */ \
  Name(enumtype::kMean reduction) : reduction_(reduction) {} /* NOLINT */ \
  Name(enumtype::kSum reduction) : reduction_(reduction) {}  /* NOLINT */

struct BRASA_API MSELossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(MSELossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API L1LossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(L1LossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API SmoothL1LossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(SmoothL1LossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(double, beta) = 1.0;
};
struct BRASA_API HuberLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(HuberLossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(double, delta) = 1.0;
};
struct BRASA_API NLLLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(NLLLossOptions)
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(int64_t, ignore_index) = -100;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API CrossEntropyLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(CrossEntropyLossOptions)
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(int64_t, ignore_index) = -100;
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(double, label_smoothing) = 0.0;
};
struct BRASA_API BCELossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(BCELossOptions)
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API BCEWithLogitsLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(BCEWithLogitsLossOptions)
  BRASA_ARG(Tensor, weight) = {};
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(Tensor, pos_weight) = {};
};
struct BRASA_API MarginRankingLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(MarginRankingLossOptions)
  BRASA_ARG(double, margin) = 0;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API CosineEmbeddingLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_LOSS_REDUCTION_CTORS(CosineEmbeddingLossOptions)
  BRASA_ARG(double, margin) = 0.0;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
#undef BRASA_LOSS_REDUCTION_CTORS

struct BRASA_API KLDivLossOptions {
  using reduction_t =
      EnumVariant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>;
  KLDivLossOptions() = default;
  KLDivLossOptions(reduction_t reduction)  // NOLINT(google-explicit-constructor)
      : reduction_(reduction) {}
  BRASA_ARG(reduction_t, reduction) = kMean;
  BRASA_ARG(bool, log_target) = false;
};

namespace functional {

using MSELossFuncOptions = MSELossOptions;
using L1LossFuncOptions = L1LossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using KLDivFuncOptions = KLDivLossOptions;
using MarginRankingLossFuncOptions = MarginRankingLossOptions;
using CosineEmbeddingLossFuncOptions = CosineEmbeddingLossOptions;

/// (input - target)^2.
BRASA_API Tensor mse_loss(const Tensor& input, const Tensor& target,
                          const MSELossFuncOptions& options = {});
/// |input - target|.
BRASA_API Tensor l1_loss(const Tensor& input, const Tensor& target,
                         const L1LossFuncOptions& options = {});
/// 0.5 d^2 / beta where d = |input - target| < beta, d - 0.5 beta elsewhere (l1 for beta 0);
/// ValueError for a negative beta.
BRASA_API Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                                const SmoothL1LossFuncOptions& options = {});
/// libtorch's form with beta as its own argument (`F::smooth_l1_loss(x, y, torch::kSum, 0.5)`);
/// it takes precedence over options.beta().
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                             const SmoothL1LossFuncOptions& options, double beta) {
  return smooth_l1_loss(input, target, SmoothL1LossFuncOptions(options).beta(beta));
}
/// 0.5 d^2 where d < delta, delta (d - 0.5 delta) elsewhere; ValueError unless delta > 0.
BRASA_API Tensor huber_loss(const Tensor& input, const Tensor& target,
                            const HuberLossFuncOptions& options = {});
/// input [C] / [N, C] / [N, C, d...] of log-probabilities, target [] / [N] / [N, d...] of Long
/// class indices (TypeError for another dtype); -weight[t] * input[t], skipping ignore_index; the
/// mean divides by the summed weights of the counted targets.
BRASA_API Tensor nll_loss(const Tensor& input, const Tensor& target,
                          const NLLLossFuncOptions& options = {});
/// nll_loss(log_softmax(input, class dim)) for class indices, or -sum(weight * target *
/// log_softmax) for a floating target of input's shape (class probabilities); label_smoothing in
/// [0, 1] mixes in the uniform distribution (ValueError outside).
BRASA_API Tensor cross_entropy(const Tensor& input, const Tensor& target,
                               const CrossEntropyFuncOptions& options = {});
/// -weight * (t log x + (1 - t) log(1 - x)) with logs clamped at -100; input in [0, 1] (ValueError
/// otherwise) and target of input's shape (ValueError otherwise).
BRASA_API Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                      const BinaryCrossEntropyFuncOptions& options = {});
/// binary_cross_entropy(sigmoid(input), target) computed stably; pos_weight (broadcast over the
/// last dim) weighs the positive term.
BRASA_API Tensor
binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                 const BinaryCrossEntropyWithLogitsFuncOptions& options = {});
/// target * (log target - input) (exp(target) * (target - input) with log_target); kBatchMean
/// divides the sum by the batch size.
BRASA_API Tensor kl_div(const Tensor& input, const Tensor& target,
                        const KLDivFuncOptions& options = {});
/// max(0, -target * (input1 - input2) + margin); the three must have the same number of dims.
BRASA_API Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2,
                                     const Tensor& target,
                                     const MarginRankingLossFuncOptions& options = {});
/// 1 - cos(x1, x2) where target is 1, max(0, cos - margin) where it is -1; inputs [D] or [N, D],
/// target [] or [N].
BRASA_API Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2,
                                       const Tensor& target,
                                       const CosineEmbeddingLossFuncOptions& options = {});

}  // namespace functional
}  // namespace brasa::nn
