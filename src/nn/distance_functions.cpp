// at:: distance functions: pairwise_distance and cosine_similarity are nn::functional's (one
// computation for both spellings); pdist (also F::pdist) and dist are norms of differences.

#include "brasa/nn/distance_functions.h"

#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/functional/distance.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {
namespace {
namespace F = nn::functional;
}  // namespace

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  return F::pairwise_distance(x1, x2,
                              F::PairwiseDistanceFuncOptions().p(p).eps(eps).keepdim(keepdim));
}

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  return F::cosine_similarity(x1, x2, F::CosineSimilarityFuncOptions().dim(dim).eps(eps));
}

Tensor pdist(const Tensor& self, double p) {
  BRASA_CHECK(self.defined() && self.dim() == 2, "pdist: expected a 2-d input [N, M], got ",
              self.defined() ? self.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), "pdist: expected a floating input, got ",
                   self.scalar_type());
  BRASA_CHECK(p >= 0, "pdist: expected a non-negative p, got ", p);
  const int64_t n = self.size(0);
  std::vector<int64_t> first, second;  // the pairs i < j in row-major order
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      first.push_back(i);
      second.push_back(j);
    }
  const auto pairs = static_cast<int64_t>(first.size());
  Tensor a =
      self.index_select(0, detail::tensor_from_array(first.data(), pairs, kLong).to(self.device()));
  Tensor b = self.index_select(
      0, detail::tensor_from_array(second.data(), pairs, kLong).to(self.device()));
  return (a - b).norm(p, {1});
}

Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p) {
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()) && is_floating_type(other.scalar_type()),
                   "dist: expected floating inputs, got ", self.scalar_type(), " and ",
                   other.scalar_type());
  return (self - other).norm(p);
}

}  // namespace brasa

namespace brasa::nn::functional {

Tensor pdist(const Tensor& input, double p) { return brasa::pdist(input, p); }

}  // namespace brasa::nn::functional
