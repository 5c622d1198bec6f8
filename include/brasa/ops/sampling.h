#pragma once
// Sampling from distributions given as tensors (the in-place draws exponential_ and geometric_ are
// Tensor methods; generator state: Generator::get_state, get_rng_state).

#include <optional>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// Indices of num_samples draws from the categorical distribution(s) given by the rows of self
/// ([k] or [rows, k], non-negative floating weights, not necessarily normalised) -> int64 [n] or
/// [rows, n]. Without replacement each row's samples are distinct. Throws ValueError for negative
/// or non-finite weights, an all-zero row, num_samples <= 0, or num_samples > k without
/// replacement; TypeError for integral input.
BRASA_API Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement = false,
                             std::optional<Generator> generator = std::nullopt);

/// 0/1 draws with per-element probabilities: element i is 1 with probability p[i]. p: floating,
/// values in [0, 1]; the result has p's shape and dtype (torch::bernoulli(p)). Throws TypeError
/// for an integral p, ValueError for a probability outside [0, 1].
BRASA_API Tensor bernoulli(const Tensor& p, std::optional<Generator> generator = std::nullopt);
/// In place: self (any dtype but complex) set to 0/1 draws of probabilities p, broadcast to self's
/// shape (Tensor::bernoulli_(p) of libtorch). Throws as bernoulli, and ValueError when p does not
/// broadcast to self.
BRASA_API const Tensor& bernoulli_(const Tensor& self, const Tensor& p,
                                   std::optional<Generator> generator = std::nullopt);

/// Poisson draws with per-element rates (floating, non-negative and finite: ValueError otherwise;
/// TypeError for integral rates); the result has self's shape and dtype. Its gradient is zero (as
/// in libtorch). The draws follow Note [Rejection samplers], not libtorch's stream.
BRASA_API Tensor poisson(const Tensor& self, std::optional<Generator> generator = std::nullopt);
/// Binomial draws B(count, prob), count and prob broadcast together (floating, one dtype: TypeError
/// otherwise). Where libtorch returns meaningless values, brasa raises ValueError: a count that is
/// negative, not an integer or not finite, a prob outside [0, 1]. Not differentiable: backward
/// raises NotImplementedError, as in libtorch.
BRASA_API Tensor binomial(const Tensor& count, const Tensor& prob,
                          std::optional<Generator> generator = std::nullopt);
/// A new tensor like self (its shape, dtype and strides) of normal(mean, std) draws: the
/// functional form of self.normal_(mean, std). Backward raises NotImplementedError, as in libtorch.
BRASA_API Tensor normal_functional(const Tensor& self, double mean = 0, double std = 1,
                                   std::optional<Generator> generator = std::nullopt);

}  // namespace brasa
