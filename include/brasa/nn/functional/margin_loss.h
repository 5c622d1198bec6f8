#pragma once
// The margin, embedding and Poisson losses of torch::nn::functional with libtorch's option
// structs (`F::soft_margin_loss(x, y, F::SoftMarginLossFuncOptions(torch::kSum))`,
// `F::triplet_margin_with_distance_loss(a, p, n, F::TripletMarginWithDistanceLossFuncOptions()
// .distance_function(fn))`). They compute through the at:: losses of
// brasa/nn/margin_loss_functions.h (errors as those: ValueError naming the op and shapes, TypeError
// for integral inputs, IndexError for class indices out of range).

#include <cstdint>
#include <functional>
#include <optional>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa::nn {

#define BRASA_MARGIN_REDUCTION_CTORS(Name)                                \
  Name() = default;                                                       \
  Name(reduction_t reduction) : reduction_(reduction) {}     /* NOLINT */ \
  Name(enumtype::kNone reduction) : reduction_(reduction) {} /* NOLINT */ \
  Name(enumtype::kMean reduction) : reduction_(reduction) {} /* NOLINT */ \
  Name(enumtype::kSum reduction) : reduction_(reduction) {}  /* NOLINT */

struct BRASA_API HingeEmbeddingLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(double, margin) = 1.0;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
/// p is 1 or 2 (ValueError otherwise); weight: one value per class.
struct BRASA_API MultiMarginLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(int64_t, p) = 1;
  BRASA_ARG(double, margin) = 1.0;
  BRASA_ARG(Tensor, weight) = Tensor();
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API SoftMarginLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_MARGIN_REDUCTION_CTORS(SoftMarginLossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API MultiLabelMarginLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_MARGIN_REDUCTION_CTORS(MultiLabelMarginLossOptions)
  BRASA_ARG(reduction_t, reduction) = kMean;
};
/// weight: one value per class (broadcast against the input).
struct BRASA_API MultiLabelSoftMarginLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(Tensor, weight) = Tensor();
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API TripletMarginLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(double, margin) = 1.0;
  BRASA_ARG(double, p) = 2.0;
  BRASA_ARG(double, eps) = 1e-6;
  BRASA_ARG(bool, swap) = false;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
/// distance_function(a, b) -> one distance per sample; pairwise_distance when absent.
struct BRASA_API TripletMarginWithDistanceLossOptions {
  using reduction_t = nn::reduction_t;
  using distance_function_t = std::function<Tensor(const Tensor&, const Tensor&)>;
  BRASA_ARG(std::optional<distance_function_t>, distance_function) = std::nullopt;
  BRASA_ARG(double, margin) = 1.0;
  BRASA_ARG(bool, swap) = false;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
struct BRASA_API PoissonNLLLossOptions {
  using reduction_t = nn::reduction_t;
  BRASA_ARG(bool, log_input) = true;
  BRASA_ARG(bool, full) = false;
  BRASA_ARG(double, eps) = 1e-8;
  BRASA_ARG(reduction_t, reduction) = kMean;
};
#undef BRASA_MARGIN_REDUCTION_CTORS

namespace functional {

using HingeEmbeddingLossFuncOptions = HingeEmbeddingLossOptions;
using MultiMarginLossFuncOptions = MultiMarginLossOptions;
using SoftMarginLossFuncOptions = SoftMarginLossOptions;
using MultilabelMarginLossFuncOptions = MultiLabelMarginLossOptions;
using MultilabelSoftMarginLossFuncOptions = MultiLabelSoftMarginLossOptions;
using TripletMarginLossFuncOptions = TripletMarginLossOptions;
using TripletMarginWithDistanceLossFuncOptions = TripletMarginWithDistanceLossOptions;
using PoissonNLLLossFuncOptions = PoissonNLLLossOptions;

/// x where target is 1, max(0, margin - x) where it is -1.
BRASA_API Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                                      const HingeEmbeddingLossFuncOptions& options = {});
/// input [N, C] or [C], target Long class indices [N] or []: the multi-class hinge loss.
BRASA_API Tensor multi_margin_loss(const Tensor& input, const Tensor& target,
                                   const MultiMarginLossFuncOptions& options = {});
/// log(1 + exp(-target * input)); target of the input's shape.
BRASA_API Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                                  const SoftMarginLossFuncOptions& options = {});
/// input [N, C] or [C], target Long of its shape listing class indices up to the first -1.
BRASA_API Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target,
                                        const MultilabelMarginLossFuncOptions& options = {});
/// -(t log sigmoid(x) + (1 - t) log sigmoid(-x)) * weight, averaged over the last (class) dim.
BRASA_API Tensor
multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                            const MultilabelSoftMarginLossFuncOptions& options = {});
/// max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm distance.
BRASA_API Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive,
                                     const Tensor& negative,
                                     const TripletMarginLossFuncOptions& options = {});
/// The same with options.distance_function as d.
BRASA_API Tensor triplet_margin_with_distance_loss(
    const Tensor& anchor, const Tensor& positive, const Tensor& negative,
    const TripletMarginWithDistanceLossFuncOptions& options = {});
/// Negative log likelihood of a Poisson target (see at::poisson_nll_loss).
BRASA_API Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                                  const PoissonNLLLossFuncOptions& options = {});

}  // namespace functional

namespace detail {
/// at::Reduction::None / Mean / Sum for kNone / kMean / kSum.
BRASA_API int64_t reduction_enum(const reduction_t& reduction);
/// "kNone", "kMean" or "kSum".
BRASA_API const char* reduction_name(const reduction_t& reduction);
}  // namespace detail
}  // namespace brasa::nn
