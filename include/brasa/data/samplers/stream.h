#pragma once
// StreamSampler: asks a stream dataset for batch sizes until epoch_size examples were requested.

#include "brasa/core/macros.h"
#include "brasa/data/samplers/base.h"

namespace brasa::data::samplers {

/// A batch request that is only a size.
struct BRASA_API BatchSize : public CustomBatchRequest {
  explicit BatchSize(size_t size) : size_(size) {}
  size_t size() const noexcept override { return size_; }
  operator size_t() const noexcept { return size_; }  // NOLINT: implicit like libtorch
  size_t size_;
};

class BRASA_API StreamSampler : public Sampler<BatchSize> {
 public:
  explicit StreamSampler(size_t epoch_size) : epoch_size_(epoch_size) {}
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<BatchSize> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

 private:
  size_t examples_retrieved_so_far_ = 0;
  size_t epoch_size_;
};

}  // namespace brasa::data::samplers
