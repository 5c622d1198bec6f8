#pragma once
// The loss functions of libtorch's at:: / torch:: namespace (`torch::nll_loss(out, target)`,
// `torch::mse_loss(x, y, at::Reduction::Sum)`): libtorch 1.13's signatures and defaults, with the
// reduction an int64_t (Reduction::None, Mean or Sum; ValueError naming the op otherwise) and the
// optional weights as std::optional<Tensor> (an undefined tensor counts as none). Each one is the
// nn::functional loss of the same name (see nn/functional/loss.h for shapes, dtypes and errors).

#include <cstdint>
#include <optional>

#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa {

BRASA_API Tensor mse_loss(const Tensor& self, const Tensor& target,
                          int64_t reduction = Reduction::Mean);
BRASA_API Tensor l1_loss(const Tensor& self, const Tensor& target,
                         int64_t reduction = Reduction::Mean);
BRASA_API Tensor smooth_l1_loss(const Tensor& self, const Tensor& target,
                                int64_t reduction = Reduction::Mean, double beta = 1.0);
BRASA_API Tensor huber_loss(const Tensor& self, const Tensor& target,
                            int64_t reduction = Reduction::Mean, double delta = 1.0);
/// self: log-probabilities [C], [N, C] or [N, C, d...]; target: Long class indices.
BRASA_API Tensor nll_loss(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight = {},
                          int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
/// nll_loss for [N, C, H, W] inputs (libtorch checks the 4 dims; so does this).
BRASA_API Tensor nll_loss2d(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = {},
                            int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
/// nll_loss(log_softmax(self)) for class indices, or class probabilities of self's shape.
BRASA_API Tensor cross_entropy_loss(const Tensor& self, const Tensor& target,
                                    const std::optional<Tensor>& weight = {},
                                    int64_t reduction = Reduction::Mean,
                                    int64_t ignore_index = -100, double label_smoothing = 0.0);
BRASA_API Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                                      const std::optional<Tensor>& weight = {},
                                      int64_t reduction = Reduction::Mean);
BRASA_API Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                                  const std::optional<Tensor>& weight = {},
                                                  const std::optional<Tensor>& pos_weight = {},
                                                  int64_t reduction = Reduction::Mean);
/// Reduction::Mean divides by the number of elements (libtorch's at::kl_div has no batchmean).
BRASA_API Tensor kl_div(const Tensor& self, const Tensor& target,
                        int64_t reduction = Reduction::Mean, bool log_target = false);
BRASA_API Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2,
                                     const Tensor& target, double margin = 0.0,
                                     int64_t reduction = Reduction::Mean);
BRASA_API Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2,
                                       const Tensor& target, double margin = 0.0,
                                       int64_t reduction = Reduction::Mean);

}  // namespace brasa
