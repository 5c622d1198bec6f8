#pragma once
// RandomSampler: a fresh random permutation of 0..size-1 each epoch.

#include <cstdint>

#include "brasa/core/dtype.h"
#include "brasa/core/generator.h"
#include "brasa/core/macros.h"
#include "brasa/core/tensor.h"
#include "brasa/data/samplers/base.h"

namespace brasa::data::samplers {

/// Draws each permutation (randperm) from the default generator, so torch::manual_seed makes it
/// deterministic; or (a brasa extension) from the given generator.
class BRASA_API RandomSampler : public Sampler<> {
 public:
  explicit RandomSampler(int64_t size, ScalarType index_dtype = kInt64);
  RandomSampler(int64_t size, Generator generator, ScalarType index_dtype = kInt64);
  ~RandomSampler() override;
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept { return static_cast<size_t>(index_); }

 private:
  Tensor indices_;
  int64_t index_ = 0;
  ScalarType index_dtype_;
  Generator generator_;
};

}  // namespace brasa::data::samplers
