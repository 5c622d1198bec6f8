#pragma once
// torch::nn::utils::clip_grad_norm_ / clip_grad_value_: rescale or clamp parameters' .grad in
// place (parameters without a gradient are skipped).

#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::nn::utils {

/// Scales all gradients by max_norm / (total_norm + 1e-6) when that is below 1, where total_norm
/// is the norm_type-norm (inf allowed) of all gradients together; returns total_norm. With
/// error_if_nonfinite, a NaN/inf total norm throws ValueError instead.
BRASA_API double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm,
                                 double norm_type = 2.0, bool error_if_nonfinite = false);
BRASA_API double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm,
                                 double norm_type = 2.0, bool error_if_nonfinite = false);
BRASA_API double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type = 2.0,
                                 bool error_if_nonfinite = false);

/// Clamps every gradient to [-clip_value, clip_value].
BRASA_API void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value);
BRASA_API void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value);
BRASA_API void clip_grad_value_(const Tensor& parameter, double clip_value);

}  // namespace brasa::nn::utils
