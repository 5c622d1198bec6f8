// Loss functionals, composed from pointwise ops and reductions.

#include "brasa/nn/functional/loss.h"

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/functional/activation.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/opmath.h"
#include "ops/reduce/cross_entropy_ops.h"

namespace brasa::nn::functional {
namespace {

void check_floating(const Tensor& t, const char* op, const char* what) {
  BRASA_CHECK_TYPE(is_floating_type(t.scalar_type()), op, ": expected a floating ", what, ", got ",
                   t.scalar_type());
}

Tensor reduce(const Tensor& loss, const reduction_t& reduction) {
  if (nn::holds_alternative<enumtype::kNone>(reduction)) return loss;
  if (nn::holds_alternative<enumtype::kSum>(reduction)) return loss.sum();
  return loss.mean();
}

void check_pair(const Tensor& input, const Tensor& target, const char* op) {
  check_floating(input, op, "input");
  check_floating(target, op, "target");
}

/// Shape [1, C, 1, ...] (or [C] for an unbatched input) to broadcast a per-class vector.
std::vector<int64_t> class_view(const Tensor& input, int64_t class_dim) {
  std::vector<int64_t> s(static_cast<size_t>(input.dim()), 1);
  s[static_cast<size_t>(class_dim)] = input.size(class_dim);
  return s;
}

struct ClassTargets {
  int64_t class_dim;
  Tensor onehot;  // Bool, input's shape
  Tensor valid;   // Bool, target's shape
  Tensor weight;  // weight[target] (0 where ignored), target's shape
};

/// Checks the shapes of input/target/weight and every class index, then builds the one-hot mask.
ClassTargets class_targets(const Tensor& input, const Tensor& target, const Tensor& weight,
                           int64_t ignore_index, const char* op) {
  check_floating(input, op, "input");
  BRASA_CHECK(input.dim() >= 1, op, ": expected an input of 1 or more dims, got a 0-d tensor");
  BRASA_CHECK_TYPE(target.scalar_type() == kLong, op,
                   ": expected a Long target of class indices, got ", target.scalar_type());
  const int64_t cd = input.dim() == 1 ? 0 : 1;
  const int64_t c = input.size(cd);
  if (input.dim() == 1) {
    BRASA_CHECK(target.dim() == 0, op, ": expected a 0-d target for an input of shape ",
                input.sizes(), ", got ", target.sizes());
  } else {
    BRASA_CHECK(target.dim() == input.dim() - 1 && target.size(0) == input.size(0), op,
                ": expected input batch_size (", input.size(0), ") to match target batch_size (",
                target.dim() > 0 ? target.size(0) : -1, ")");
    for (int64_t d = 2; d < input.dim(); ++d)
      BRASA_CHECK(target.size(d - 1) == input.size(d), op, ": expected a target of shape [",
                  input.size(0), ", d...] matching input ", input.sizes(), ", got ",
                  target.sizes());
  }
  if (weight.defined()) {
    BRASA_CHECK(weight.dim() == 1 && weight.size(0) == c, op, ": expected a weight of shape [", c,
                "], got ", weight.sizes());
  }
  if (!target.is_meta()) {
    const Tensor t = target.cpu().contiguous();  // the check reads the values on the host
    const int64_t* p = t.data_ptr<int64_t>();
    for (int64_t i = 0, n = t.numel(); i < n; ++i) {
      BRASA_CHECK_INDEX(p[i] == ignore_index || (p[i] >= 0 && p[i] < c), op, ": target ", p[i],
                        " is out of bounds for ", c, " classes");
    }
  }
  const auto view = class_view(input, cd);
  ClassTargets r;
  r.class_dim = cd;
  r.onehot =
      target.unsqueeze(cd).eq(arange(c, TensorOptions(kLong).device(target.device())).view(view));
  r.valid = target.ne(ignore_index);
  Tensor w = weight.defined() ? where(r.onehot, weight.view(view), 0).sum({cd})
                              : ones(target.sizes(), input.options());
  r.weight = where(r.valid, w, 0);
  return r;
}

Tensor nll_from(const Tensor& input, const ClassTargets& ct, const reduction_t& reduction) {
  Tensor picked = where(ct.onehot, input, 0).sum({ct.class_dim});
  Tensor loss = where(ct.valid, picked.neg() * ct.weight, 0);
  if (nn::holds_alternative<enumtype::kMean>(reduction)) return loss.sum() / ct.weight.sum();
  return reduce(loss, reduction);
}

}  // namespace

static Tensor mse_loss_impl(const Tensor& input, const Tensor& target,
                            const MSELossFuncOptions& options) {
  check_pair(input, target, "mse_loss");
  Tensor d = input - target;
  return reduce(d * d, options.reduction());
}

static Tensor l1_loss_impl(const Tensor& input, const Tensor& target,
                           const L1LossFuncOptions& options) {
  check_pair(input, target, "l1_loss");
  return reduce((input - target).abs(), options.reduction());
}

static Tensor smooth_l1_loss_impl(const Tensor& input, const Tensor& target,
                                  const SmoothL1LossFuncOptions& options) {
  check_pair(input, target, "smooth_l1_loss");
  const double beta = options.beta();
  BRASA_CHECK(beta >= 0, "smooth_l1_loss: beta must be non-negative, got ", beta);
  Tensor d = (input - target).abs();
  if (beta == 0) return reduce(d, options.reduction());
  return reduce(where(d.lt(beta), d * d * (0.5 / beta), d - 0.5 * beta), options.reduction());
}

static Tensor huber_loss_impl(const Tensor& input, const Tensor& target,
                              const HuberLossFuncOptions& options) {
  check_pair(input, target, "huber_loss");
  const double delta = options.delta();
  BRASA_CHECK(delta > 0, "huber_loss: delta must be positive, got ", delta);
  Tensor d = (input - target).abs();
  return reduce(where(d.lt(delta), d * d * 0.5, (d - 0.5 * delta) * delta), options.reduction());
}

static Tensor nll_loss_impl(const Tensor& input, const Tensor& target,
                            const NLLLossFuncOptions& options) {
  const auto ct =
      class_targets(input, target, options.weight(), options.ignore_index(), "nll_loss");
  return nll_from(input, ct, options.reduction());
}

// Note [Cross-entropy fast path]: the training case — [N, C] Float or Double logits, int64 class
// indices, no weight, no smoothing — is one dispatched op, `_softmax_cross_entropy`
// (src/ops/reduce/cross_entropy_ops.h): one pass per row for the loss (log_softmax and the pick of
// the target) and one for its gradient ((softmax - one_hot) * grad), instead of the ~15 small ops
// of the general composite and their backward. Targets equal to ignore_index count for nothing, so
// which path runs depends on shapes and options only, never on the targets' values: compile
// captures the op (reading the targets to choose would be a graph break). Its double backward is
// written with differentiable ops.
static bool takes_fast_path(const Tensor& input, const Tensor& target,
                            const CrossEntropyFuncOptions& options) {
  return input.dim() == 2 && target.dim() == 1 && target.scalar_type() == kLong &&
         (input.scalar_type() == kFloat || input.scalar_type() == kDouble) &&
         !options.weight().defined() && options.label_smoothing() == 0 &&
         input.size(0) == target.size(0) && input.size(0) > 0 && input.size(1) > 0 &&
         input.device() == target.device();
}

static int64_t reduction_enum(const reduction_t& reduction) {
  if (nn::holds_alternative<enumtype::kNone>(reduction)) return 0;
  return nn::holds_alternative<enumtype::kSum>(reduction) ? 2 : 1;
}

static Tensor cross_entropy_impl(const Tensor& input, const Tensor& target,
                                 const CrossEntropyFuncOptions& options) {
  if (takes_fast_path(input, target, options))
    return ops::softmax_cross_entropy_op().call(input, target, reduction_enum(options.reduction()),
                                                options.ignore_index());
  const double ls = options.label_smoothing();
  BRASA_CHECK(ls >= 0 && ls <= 1, "cross_entropy: label_smoothing must be in [0, 1], got ", ls);
  check_floating(input, "cross_entropy", "input");
  BRASA_CHECK(input.dim() >= 1, "cross_entropy: expected an input of 1 or more dims");
  const Tensor& weight = options.weight();
  if (is_floating_type(target.scalar_type())) {
    BRASA_CHECK(target.sizes() == input.sizes(), "cross_entropy: expected a probability target ",
                "of the input's shape ", input.sizes(), ", got ", target.sizes());
    const int64_t cd = input.dim() == 1 ? 0 : 1;
    const int64_t c = input.size(cd);
    if (weight.defined())
      BRASA_CHECK(weight.dim() == 1 && weight.size(0) == c,
                  "cross_entropy: expected a weight of shape [", c, "], got ", weight.sizes());
    Tensor logp = brasa::log_softmax(input, cd);
    Tensor t = ls > 0 ? target * (1 - ls) + ls / static_cast<double>(c) : target;
    Tensor prod = logp * t;
    if (weight.defined()) prod = prod * weight.view(class_view(input, cd));
    Tensor loss = prod.sum({cd}).neg();
    if (nn::holds_alternative<enumtype::kMean>(options.reduction())) {
      const int64_t n = c == 0 ? 0 : input.numel() / c;
      return loss.sum() / static_cast<double>(n);
    }
    return reduce(loss, options.reduction());
  }
  const auto ct = class_targets(input, target, weight, options.ignore_index(), "cross_entropy");
  Tensor logp = brasa::log_softmax(input, ct.class_dim);
  Tensor nll = nll_from(logp, ct, options.reduction());
  if (ls == 0) return nll;
  const int64_t c = input.size(ct.class_dim);
  Tensor wl = weight.defined() ? logp * weight.view(class_view(input, ct.class_dim)) : logp;
  Tensor smooth = where(ct.valid, wl.sum({ct.class_dim}).neg(), 0);
  Tensor smooth_red;
  if (nn::holds_alternative<enumtype::kMean>(options.reduction())) {
    smooth_red = smooth.sum() / (weight.defined() ? ct.weight.sum() : ct.valid.sum());
  } else {
    smooth_red = reduce(smooth, options.reduction());
  }
  return nll * (1 - ls) + smooth_red * (ls / static_cast<double>(c));
}

static Tensor binary_cross_entropy_impl(const Tensor& input, const Tensor& target,
                                        const BinaryCrossEntropyFuncOptions& options) {
  check_pair(input, target, "binary_cross_entropy");
  BRASA_CHECK(target.sizes() == input.sizes(), "binary_cross_entropy: using a target size (",
              target.sizes(), ") that is different to the input size (", input.sizes(),
              ") is not allowed");
  BRASA_CHECK(!input.lt(0).logical_or(input.gt(1)).any().item<bool>(),
              "binary_cross_entropy: all elements of input should be between 0 and 1");
  Tensor loss = (target * input.log().clamp_min(-100) +
                 (target.neg() + 1) * (input.neg() + 1).log().clamp_min(-100))
                    .neg();
  if (options.weight().defined()) loss = loss * options.weight();
  return reduce(loss, options.reduction());
}

static Tensor binary_cross_entropy_with_logits_impl(
    const Tensor& input, const Tensor& target,
    const BinaryCrossEntropyWithLogitsFuncOptions& options) {
  check_pair(input, target, "binary_cross_entropy_with_logits");
  BRASA_CHECK(target.sizes() == input.sizes(), "binary_cross_entropy_with_logits: target size (",
              target.sizes(), ") must be the same as input size (", input.sizes(), ")");
  // log(1 + exp(-x)) = -logsigmoid(x): stable, and its derivative -sigmoid(-x) is right at 0 too
  // (the composite max(-x, 0) + log1p(exp(-|x|)) differentiates to -1 there).
  Tensor log_sig_neg = logsigmoid(input).neg();
  Tensor loss;
  if (options.pos_weight().defined()) {
    Tensor coef = (options.pos_weight() - 1) * target + 1;
    loss = (target.neg() + 1) * input + coef * log_sig_neg;
  } else {
    loss = (target.neg() + 1) * input + log_sig_neg;
  }
  if (options.weight().defined()) loss = loss * options.weight();
  return reduce(loss, options.reduction());
}

static Tensor kl_div_impl(const Tensor& input, const Tensor& target,
                          const KLDivFuncOptions& options) {
  check_pair(input, target, "kl_div");
  Tensor loss;
  if (options.log_target()) {
    loss = target.exp() * (target - input);
  } else {
    Tensor xlogx = where(target.eq(0), 0, target * target.log());
    loss = xlogx - target * input;
  }
  const auto& r = options.reduction();
  if (nn::holds_alternative<enumtype::kNone>(r)) return loss;
  if (nn::holds_alternative<enumtype::kSum>(r)) return loss.sum();
  if (nn::holds_alternative<enumtype::kMean>(r)) return loss.mean();
  BRASA_CHECK(input.dim() >= 1, "kl_div: batchmean needs an input of 1 or more dims");
  return loss.sum() / static_cast<double>(input.size(0));
}

static Tensor margin_ranking_loss_impl(const Tensor& input1, const Tensor& input2,
                                       const Tensor& target,
                                       const MarginRankingLossFuncOptions& options) {
  check_pair(input1, input2, "margin_ranking_loss");
  BRASA_CHECK(input1.dim() == input2.dim() && input1.dim() == target.dim(),
              "margin_ranking_loss: all input tensors should have the same number of dims, got ",
              input1.sizes(), ", ", input2.sizes(), " and ", target.sizes());
  Tensor loss = (target.neg() * (input1 - input2) + options.margin()).clamp_min(0);
  return reduce(loss, options.reduction());
}

static Tensor cosine_embedding_loss_impl(const Tensor& input1, const Tensor& input2,
                                         const Tensor& target,
                                         const CosineEmbeddingLossFuncOptions& options) {
  check_pair(input1, input2, "cosine_embedding_loss");
  BRASA_CHECK(input1.sizes() == input2.sizes() && (input1.dim() == 1 || input1.dim() == 2) &&
                  target.dim() == input1.dim() - 1 &&
                  (target.dim() == 0 || target.size(0) == input1.size(0)),
              "cosine_embedding_loss: expected inputs [D] or [N, D] of equal shapes and a target "
              "[] or [N], got ",
              input1.sizes(), ", ", input2.sizes(), " and ", target.sizes());
  constexpr double kEps = 1e-12;
  Tensor prod = (input1 * input2).sum({-1});
  Tensor m1 = (input1 * input1).sum({-1}) + kEps;
  Tensor m2 = (input2 * input2).sum({-1}) + kEps;
  Tensor cos = prod / (m1 * m2).sqrt();
  Tensor loss = where(target.eq(1), cos.neg() + 1,
                      where(target.eq(-1), (cos - options.margin()).clamp_min(0), 0));
  return reduce(loss, options.reduction());
}

Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return mse_loss_impl(x, y, options);
  });
}

Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options) {
  return detail::loss_opmath2(
      input, target, [&](const Tensor& x, const Tensor& y) { return l1_loss_impl(x, y, options); });
}

Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                      const SmoothL1LossFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return smooth_l1_loss_impl(x, y, options);
  });
}

Tensor huber_loss(const Tensor& input, const Tensor& target, const HuberLossFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return huber_loss_impl(x, y, options);
  });
}

Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return nll_loss_impl(x, y, options);
  });
}

Tensor cross_entropy(const Tensor& input, const Tensor& target,
                     const CrossEntropyFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return cross_entropy_impl(x, y, options);
  });
}

Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                            const BinaryCrossEntropyFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return binary_cross_entropy_impl(x, y, options);
  });
}

Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const BinaryCrossEntropyWithLogitsFuncOptions& options) {
  return detail::loss_opmath2(input, target, [&](const Tensor& x, const Tensor& y) {
    return binary_cross_entropy_with_logits_impl(x, y, options);
  });
}

Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options) {
  return detail::loss_opmath2(
      input, target, [&](const Tensor& x, const Tensor& y) { return kl_div_impl(x, y, options); });
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                           const MarginRankingLossFuncOptions& options) {
  return detail::loss_opmath2(input1, input2, [&](const Tensor& x, const Tensor& y) {
    return margin_ranking_loss_impl(x, y, target, options);
  });
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                             const CosineEmbeddingLossFuncOptions& options) {
  // PyTorch's formula adds a float epsilon to sums of products, so integer (and bool) inputs
  // promote to the default dtype, and mixed ones to their common floating dtype.
  if (input1.defined() && input2.defined()) {
    ScalarType common = promote_types(input1.scalar_type(), input2.scalar_type());
    if (!is_floating_type(common)) common = get_default_dtype();
    if (input1.scalar_type() != common || input2.scalar_type() != common)
      return cosine_embedding_loss(input1.to(common), input2.to(common), target, options);
  }
  return detail::loss_opmath2(input1, input2, [&](const Tensor& x, const Tensor& y) {
    return cosine_embedding_loss_impl(x, y, target, options);
  });
}

}  // namespace brasa::nn::functional
