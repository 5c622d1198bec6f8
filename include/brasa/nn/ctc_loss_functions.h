#pragma once
// at::ctc_loss / torch::ctc_loss: the connectionist temporal classification loss with libtorch
// 1.13's signatures and defaults, and the gradient PyTorch's CPU kernel gives (Note [CTC
// gradient] in src/nn/ctc_loss_functions.cpp).

#include <cstdint>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/reduction.h"

namespace brasa {

/// log_probs [T, N, C] (or [T, C] unbatched) floating log-probabilities; targets either [N, S]
/// padded rows or the concatenation of all targets (1-D), integral class indices other than
/// blank; input_lengths and target_lengths one per sample. Per sample -log p(target | input),
/// inf for an impossible alignment (0 with zero_infinity); Reduction::Mean divides each by its
/// target length (at least 1) and averages. ValueError for lengths or shapes that do not fit,
/// IndexError for blank outside [0, C), TypeError for integral log_probs.
BRASA_API Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                          IntArrayRef target_lengths, int64_t blank = 0,
                          int64_t reduction = Reduction::Mean, bool zero_infinity = false);
/// The same with the lengths as integral tensors.
BRASA_API Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets,
                          const Tensor& input_lengths, const Tensor& target_lengths,
                          int64_t blank = 0, int64_t reduction = Reduction::Mean,
                          bool zero_infinity = false);

}  // namespace brasa
