// parameters_to_vector / vector_to_parameters.

#include "brasa/nn/utils/convert_parameters.h"

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/view.h"

namespace brasa::nn::utils {

Tensor parameters_to_vector(const std::vector<Tensor>& parameters) {
  BRASA_CHECK(!parameters.empty(), "parameters_to_vector: no parameters given");
  std::vector<Tensor> flat;
  flat.reserve(parameters.size());
  for (const auto& p : parameters) {
    BRASA_CHECK(p.device() == parameters.front().device(),
                "parameters_to_vector: parameters are on different devices (",
                parameters.front().device(), " and ", p.device(), ")");
    flat.push_back(p.reshape({-1}));
  }
  return cat(flat);
}

void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters) {
  BRASA_CHECK(vec.dim() == 1, "vector_to_parameters: expected a 1-d vector, got ", vec.dim(),
              " dims");
  int64_t total = 0;
  for (const auto& p : parameters) total += p.numel();
  BRASA_CHECK(total == vec.numel(), "vector_to_parameters: the vector has ", vec.numel(),
              " elements but the parameters have ", total);
  NoGradGuard no_grad;
  int64_t offset = 0;
  for (const auto& p : parameters) {
    p.copy_(vec.slice(0, offset, offset + p.numel()).view_as(p));
    offset += p.numel();
  }
}

}  // namespace brasa::nn::utils
