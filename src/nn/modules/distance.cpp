// CosineSimilarity and PairwiseDistance: libtorch's printing, forward through the functionals.

#include "brasa/nn/modules/distance.h"

#include <ostream>

namespace brasa::nn {

void CosineSimilarityImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::CosineSimilarity(dim=" << options.dim() << ", eps=" << options.eps() << ")";
}
Tensor CosineSimilarityImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::cosine_similarity(input1, input2, options);
}

void PairwiseDistanceImpl::pretty_print(std::ostream& s) const {
  s << std::boolalpha << "torch::nn::PairwiseDistance(p=" << options.p()
    << ", eps=" << options.eps() << ", keepdim=" << options.keepdim() << ")";
}
Tensor PairwiseDistanceImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::pairwise_distance(input1, input2, options);
}

}  // namespace brasa::nn
