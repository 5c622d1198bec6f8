// Margin, embedding and Poisson loss functionals: options unpacked into the at:: losses
// (nn/margin_loss_functions.cpp); the multi-label soft margin and the triplet loss with a
// distance function are composites here.

#include "brasa/nn/functional/margin_loss.h"

#include "brasa/core/error.h"
#include "brasa/nn/activation_functions.h"
#include "brasa/nn/distance_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa::nn {
namespace detail {

int64_t reduction_enum(const reduction_t& reduction) {
  if (nn::holds_alternative<enumtype::kNone>(reduction)) return Reduction::None;
  if (nn::holds_alternative<enumtype::kSum>(reduction)) return Reduction::Sum;
  return Reduction::Mean;
}

const char* reduction_name(const reduction_t& reduction) {
  if (nn::holds_alternative<enumtype::kNone>(reduction)) return "kNone";
  if (nn::holds_alternative<enumtype::kSum>(reduction)) return "kSum";
  return "kMean";
}

}  // namespace detail

namespace functional {

namespace {

Tensor reduce(const Tensor& loss, const reduction_t& reduction) {
  if (nn::holds_alternative<enumtype::kNone>(reduction)) return loss;
  if (nn::holds_alternative<enumtype::kSum>(reduction)) return loss.sum();
  return loss.mean();
}

}  // namespace

Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                            const HingeEmbeddingLossFuncOptions& o) {
  return brasa::hinge_embedding_loss(input, target, o.margin(),
                                     nn::detail::reduction_enum(o.reduction()));
}

Tensor multi_margin_loss(const Tensor& input, const Tensor& target,
                         const MultiMarginLossFuncOptions& o) {
  BRASA_CHECK(o.p() == 1 || o.p() == 2, "multi_margin_loss: only p == 1 and p == 2 supported, got ",
              o.p());
  BRASA_CHECK(!o.weight().defined() || o.weight().dim() == 1,
              "multi_margin_loss: weight must be one-dimensional, got ", o.weight().sizes());
  std::optional<Tensor> weight;
  if (o.weight().defined()) weight = o.weight();
  return brasa::multi_margin_loss(input, target, o.p(), o.margin(), weight,
                                  nn::detail::reduction_enum(o.reduction()));
}

Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                        const SoftMarginLossFuncOptions& o) {
  return brasa::soft_margin_loss(input, target, nn::detail::reduction_enum(o.reduction()));
}

Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target,
                              const MultilabelMarginLossFuncOptions& o) {
  return brasa::multilabel_margin_loss(input, target, nn::detail::reduction_enum(o.reduction()));
}

Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                                   const MultilabelSoftMarginLossFuncOptions& o) {
  const char* op = "multilabel_soft_margin_loss";
  BRASA_CHECK(input.defined() && target.defined() && input.dim() >= 1, op,
              ": expected an input of 1 or more dims [N, C] and a target, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()), op, ": expected a floating input, got ",
                   input.scalar_type());
  BRASA_CHECK(input.sizes() == target.sizes(), op, ": expected target of the input's shape ",
              input.sizes(), ", got ", target.sizes());
  Tensor loss = -(target * log_sigmoid(input) + (1 - target) * log_sigmoid(-input));
  if (o.weight().defined()) loss = loss * o.weight();
  const int64_t class_dim = input.dim() - 1;
  loss = loss.sum({class_dim}) / static_cast<double>(input.size(class_dim));
  return reduce(loss, o.reduction());
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           const TripletMarginLossFuncOptions& o) {
  return brasa::triplet_margin_loss(anchor, positive, negative, o.margin(), o.p(), o.eps(),
                                    o.swap(), nn::detail::reduction_enum(o.reduction()));
}

Tensor triplet_margin_with_distance_loss(const Tensor& anchor, const Tensor& positive,
                                         const Tensor& negative,
                                         const TripletMarginWithDistanceLossFuncOptions& o) {
  const char* op = "triplet_margin_with_distance_loss";
  BRASA_CHECK(anchor.defined() && positive.defined() && negative.defined(), op,
              ": got an undefined anchor, positive or negative");
  // Unlike triplet_margin_loss, ranks may differ (the distance broadcasts), as in libtorch.
  auto distance = [&](const Tensor& a, const Tensor& b) {
    return o.distance_function() ? (*o.distance_function())(a, b) : pairwise_distance(a, b);
  };
  Tensor d_pos = distance(anchor, positive);
  Tensor d_neg = distance(anchor, negative);
  if (o.swap()) d_neg = minimum(d_neg, distance(positive, negative));
  return reduce((d_pos - d_neg + o.margin()).clamp_min(0), o.reduction());
}

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                        const PoissonNLLLossFuncOptions& o) {
  return brasa::poisson_nll_loss(input, target, o.log_input(), o.full(), o.eps(),
                                 nn::detail::reduction_enum(o.reduction()));
}

}  // namespace functional
}  // namespace brasa::nn
