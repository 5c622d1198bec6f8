// at:: losses that torch::nn::functional computes through them: hinge embedding, soft margin,
// multi-class and multi-label margin, triplet margin and Poisson NLL. Composites of pointwise ops
// and reductions, so their gradients are autograd's.

#include "brasa/nn/margin_loss_functions.h"

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/nn/distance_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/opmath.h"

namespace brasa {
namespace {

using nn::functional::detail::in_opmath;
using nn::functional::detail::in_opmath2;

Tensor reduce(const Tensor& loss, int64_t reduction, const char* op) {
  switch (reduction) {
    case Reduction::None: return loss;
    case Reduction::Mean: return loss.mean();
    case Reduction::Sum: return loss.sum();
    default:
      BRASA_CHECK(false, op,
                  ": expected reduction at::Reduction::None (0), Mean (1) or Sum (2), got ",
                  reduction);
  }
  return loss;
}

void check_floating(const Tensor& t, const char* op, const char* what) {
  BRASA_CHECK(t.defined(), op, ": got an undefined ", what);
  BRASA_CHECK_TYPE(is_floating_type(t.scalar_type()), op, ": expected a floating ", what, ", got ",
                   t.scalar_type());
}

/// The [N, C] view of a [C] or [N, C] input of a margin loss (0-d counts as [1, 1], as PyTorch).
Tensor as_frames(const Tensor& self, const char* op) {
  BRASA_CHECK(self.dim() <= 2 && (self.dim() == 0 || self.size(-1) > 0), op,
              ": expected a non-empty input of 1 or 2 dims [N, C] (or 0 batch size), got ",
              self.sizes());
  if (self.dim() <= 1) return self.reshape({1, self.dim() == 0 ? 1 : self.size(0)});
  return self;
}

}  // namespace

Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin,
                            int64_t reduction) {
  check_floating(self, "hinge_embedding_loss", "input");
  Tensor zero = zeros({}, self.options());
  Tensor below = where(target.ne(1), (margin - self).clamp_min(0), zero);
  Tensor above = where(target.ne(-1), self, zero);
  return reduce(below + above, reduction, "hinge_embedding_loss");
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_floating(self, "soft_margin_loss", "input");
  BRASA_CHECK(self.sizes() == target.sizes(), "soft_margin_loss: expected target of shape ",
              self.sizes(), ", got ", target.sizes());
  return reduce(in_opmath2(self, target,
                           [](const Tensor& x, const Tensor& y) { return (-y * x).exp().log1p(); }),
                reduction, "soft_margin_loss");
}

Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p,
                         const Scalar& margin, const std::optional<Tensor>& weight,
                         int64_t reduction) {
  const char* op = "multi_margin_loss";
  check_floating(self, op, "input");
  const int64_t power = p.to<int64_t>();
  BRASA_CHECK(p.to<double>() == 1 || p.to<double>() == 2, op,
              ": only p == 1 and p == 2 supported, got ", p.to<double>());
  Tensor x = as_frames(self, op);
  const int64_t n = x.size(0), c = x.size(1);
  BRASA_CHECK_TYPE(target.scalar_type() == kLong, op, ": expected Long class indices, got ",
                   target.scalar_type());
  BRASA_CHECK(target.dim() <= 1 && target.numel() == n, op, ": expected target of ", n,
              " class indices for input ", self.sizes(), ", got ", target.sizes());
  Tensor t = target.reshape({n, 1});
  if (t.numel() > 0) {
    BRASA_CHECK_INDEX(t.min().item<int64_t>() >= 0 && t.max().item<int64_t>() < c, op,
                      ": target out of range [0, ", c, ")");
  }
  const Tensor w = weight.value_or(Tensor());
  if (w.defined())
    BRASA_CHECK(w.dim() <= 1 && w.numel() == c, op, ": expected weight of ", c, " elements, got ",
                w.sizes());
  Tensor loss = in_opmath(x, [&](const Tensor& xs) {
    Tensor z = (xs - xs.gather(1, t) + margin.to<double>()).clamp_min(0);
    if (power == 2) z = z * z;
    if (w.defined()) z = z * w.to(xs.scalar_type()).index_select(0, t.reshape({n})).reshape({n, 1});
    // the target's own column is not summed
    Tensor own = zeros({n, c}, xs.options().dtype(kBool)).scatter(1, t, true);
    return z.masked_fill(own, 0).sum({1}) / static_cast<double>(c);
  });
  if (reduction == Reduction::None && target.dim() == 0) return loss.reshape({});
  return reduce(loss, reduction, op);
}

std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self, const Tensor& target,
                                                          int64_t reduction) {
  const char* op = "multilabel_margin_loss";
  check_floating(self, op, "input");
  BRASA_CHECK_TYPE(target.scalar_type() == kLong, op, ": expected a Long target, got ",
                   target.scalar_type());
  BRASA_CHECK(target.sizes() == self.sizes(), op, ": expected target of input's shape ",
              self.sizes(), ", got ", target.sizes());
  Tensor x = as_frames(self, op);
  const int64_t n = x.size(0), c = x.size(1);
  Tensor t = target.reshape({n, c});
  if (t.numel() > 0) {
    BRASA_CHECK_INDEX(t.min().item<int64_t>() >= -1 && t.max().item<int64_t>() < c, op,
                      ": target out of range [-1, ", c, ")");
  }
  // A row's targets are its entries before the first -1.
  Tensor valid = t.lt(0).cumsum(1).eq(0);
  Tensor idx = t.clamp_min(0);
  // is_target[i, class]: some target entry of row i names the class.
  Tensor classes = arange(c, x.options().dtype(kLong)).reshape({1, 1, c});
  Tensor is_target_bool = idx.unsqueeze(2).eq(classes).logical_and(valid.unsqueeze(2)).any(1);
  Tensor loss = in_opmath(x, [&](const Tensor& xs) {
    Tensor xt = xs.gather(1, idx).unsqueeze(2);            // [n, k, 1]
    Tensor z = (1 - (xt - xs.unsqueeze(1))).clamp_min(0);  // [n, k, c]
    Tensor keep = valid.unsqueeze(2).logical_and(is_target_bool.logical_not().unsqueeze(1));
    return z.masked_fill(keep.logical_not(), 0).sum({1, 2}) / static_cast<double>(c);
  });
  Tensor is_target = is_target_bool.to(self.scalar_type()).reshape(self.sizes());
  if (reduction == Reduction::None && self.dim() <= 1) return {loss.reshape({}), is_target};
  return {reduce(loss, reduction, op), is_target};
}

Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return std::get<0>(multilabel_margin_loss_forward(self, target, reduction));
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                           double margin, double p, double eps, bool swap, int64_t reduction) {
  const char* op = "triplet_margin_loss";
  BRASA_CHECK(anchor.dim() == positive.dim() && anchor.dim() == negative.dim(), op,
              ": expected anchor, positive and negative of the same rank, got ", anchor.sizes(),
              ", ", positive.sizes(), " and ", negative.sizes());
  Tensor d_pos = pairwise_distance(anchor, positive, p, eps);
  Tensor d_neg = pairwise_distance(anchor, negative, p, eps);
  if (swap) d_neg = minimum(d_neg, pairwise_distance(positive, negative, p, eps));
  return reduce((d_pos - d_neg + margin).clamp_min(0), reduction, op);
}

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full,
                        double eps, int64_t reduction) {
  const char* op = "poisson_nll_loss";
  check_floating(input, op, "input");
  Tensor loss = log_input ? input.exp() - target * input : input - target * (input + eps).log();
  if (full) {
    // Stirling's approximation of log(target!); differentiated with the target, as in PyTorch.
    Tensor stirling = target * target.log() - target + (target * (2 * M_PI)).log() * 0.5;
    loss = loss + stirling.masked_fill(target.le(1), 0);
  }
  return reduce(loss, reduction, op);
}

}  // namespace brasa
