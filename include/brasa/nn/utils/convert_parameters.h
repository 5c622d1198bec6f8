#pragma once
// torch::nn::utils::parameters_to_vector / vector_to_parameters.

#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::nn::utils {

/// All parameters flattened and concatenated into one 1-d tensor (ValueError when they are on
/// different devices).
BRASA_API Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
/// Copies consecutive slices of the 1-d `vec` into the parameters' data (ValueError when vec is
/// not 1-d or its length differs from the parameters' total numel).
BRASA_API void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);

}  // namespace brasa::nn::utils
