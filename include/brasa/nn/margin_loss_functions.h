#pragma once
// More loss functions of libtorch's at:: / torch:: namespace, beside nn/loss_functions.h (same
// conventions: libtorch 1.13's signatures and defaults, the reduction an int64_t
// Reduction::None, Mean or Sum, ValueError naming the op otherwise, optional weights as
// std::optional<Tensor>): the margin losses, Poisson NLL, and nll_loss's nd / _forward forms.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa {

/// nll_loss for inputs of any rank [C], [N, C] or [N, C, d...] (libtorch's nll_loss_nd).
BRASA_API Tensor nll_loss_nd(const Tensor& self, const Tensor& target,
                             const std::optional<Tensor>& weight = {},
                             int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
/// (nll_loss, total_weight): total_weight is the sum of the weights (1 without weights) of the
/// targets not ignored, 0 for Reduction::None; 0-d in self's dtype.
BRASA_API std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                                      const std::optional<Tensor>& weight,
                                                      int64_t reduction, int64_t ignore_index);
/// nll_loss_forward for [N, C, H, W] inputs.
BRASA_API std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                                        const std::optional<Tensor>& weight,
                                                        int64_t reduction, int64_t ignore_index);
/// max(0, margin - x) where target is -1 plus x where target is 1 (other targets count both).
BRASA_API Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                                      int64_t reduction = Reduction::Mean);
/// log(1 + exp(-target * self)), averaged over all elements for Reduction::Mean.
BRASA_API Tensor soft_margin_loss(const Tensor& self, const Tensor& target,
                                  int64_t reduction = Reduction::Mean);
/// self [N, C] or [C], target Long [N] or 0-d/[1] class indices: per sample
/// sum_{j != y} max(0, margin - x[y] + x[j])^p * weight[y] / C; p is 1 or 2 (ValueError otherwise),
/// IndexError for a target outside [0, C).
BRASA_API Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p = 1,
                                   const Scalar& margin = 1,
                                   const std::optional<Tensor>& weight = {},
                                   int64_t reduction = Reduction::Mean);
/// self [N, C] or [C], target Long of self's shape: each row's class indices up to its first -1;
/// per sample sum over target classes j and other classes i of max(0, 1 - (x[j] - x[i])) / C.
BRASA_API Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target,
                                        int64_t reduction = Reduction::Mean);
/// (multilabel_margin_loss, is_target): is_target is 1 at each row's target classes (self's dtype).
BRASA_API std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self,
                                                                    const Tensor& target,
                                                                    int64_t reduction);
/// max(0, margin + d(anchor, positive) - d(anchor, negative)) with d pairwise_distance(p, eps);
/// swap uses min(d(a, n), d(p, n)). The three inputs must have the same rank (ValueError).
BRASA_API Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive,
                                     const Tensor& negative, double margin = 1.0, double p = 2,
                                     double eps = 1e-06, bool swap = false,
                                     int64_t reduction = Reduction::Mean);
/// exp(input) - target * input (log_input), or input - target * log(input + eps); full adds
/// Stirling's term target * log(target) - target + log(2 pi target) / 2 where target > 1.
BRASA_API Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input,
                                  bool full, double eps, int64_t reduction);

}  // namespace brasa
