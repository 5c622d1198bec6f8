#pragma once
// Distributed samplers: each of num_replicas processes (rank) sees its own slice of every epoch.

#include <cstddef>
#include <vector>

#include "brasa/core/macros.h"
#include "brasa/data/samplers/base.h"

namespace brasa::data::samplers {

/// Rank r takes slice r of the epoch's index order. With allow_duplicates each slice has
/// ceil(size / num_replicas) indices (the order wraps around to fill the last one), else
/// floor(size / num_replicas) (the tail is dropped).
template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
 public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true)
      : size_(size),
        num_replicas_(num_replicas),
        rank_(rank),
        epoch_(0),
        allow_duplicates_(allow_duplicates) {}

  /// The epoch seeds the shuffle of DistributedRandomSampler; call before reset().
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

 protected:
  size_t local_sample_count() const {
    return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_ : size_ / num_replicas_;
  }

  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_;
  bool allow_duplicates_;
};

/// Every replica shuffles all indices with the same epoch-seeded permutation, then takes its slice.
/// Throws ValueError unless rank < num_replicas.
class BRASA_API DistributedRandomSampler : public DistributedSampler<> {
 public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                           bool allow_duplicates = true);
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();
  size_t sample_index_ = 0;
  std::vector<size_t> all_indices_;
};

/// Rank r takes the contiguous slice r of 0..size-1 (wrapping when duplicates are allowed).
class BRASA_API DistributedSequentialSampler : public DistributedSampler<> {
 public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                               bool allow_duplicates = true);
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();
  size_t sample_index_ = 0;
  std::vector<size_t> all_indices_;
};

}  // namespace brasa::data::samplers
