#pragma once
// CosineSimilarity and PairwiseDistance modules: forward(x1, x2) is F::cosine_similarity /
// F::pairwise_distance with the module's options (shapes, dtypes and errors as those).

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

/// sum(x1 * x2) / max(||x1|| * ||x2||, eps) along options.dim.
class BRASA_API CosineSimilarityImpl : public Cloneable<CosineSimilarityImpl> {
 public:
  explicit CosineSimilarityImpl(const CosineSimilarityOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);
  CosineSimilarityOptions options;
};
BRASA_MODULE(CosineSimilarity);

/// ||x1 - x2 + eps||_p along the last dim.
class BRASA_API PairwiseDistanceImpl : public Cloneable<PairwiseDistanceImpl> {
 public:
  explicit PairwiseDistanceImpl(const PairwiseDistanceOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);
  PairwiseDistanceOptions options;
};
BRASA_MODULE(PairwiseDistance);

}  // namespace brasa::nn
