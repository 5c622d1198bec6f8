// DistributedRandomSampler and DistributedSequentialSampler.

#include <algorithm>
#include <numeric>
#include <random>

#include "brasa/core/error.h"
#include "brasa/data/samplers/distributed.h"

namespace brasa::data::samplers {

namespace {
void check_replicas(size_t num_replicas, size_t rank, const char* sampler) {
  BRASA_CHECK(num_replicas > 0, sampler, ": num_replicas must be positive");
  BRASA_CHECK(rank < num_replicas, sampler, ": rank ", rank, " is out of range for ", num_replicas,
              " replicas");
}

// This rank's slice of `order`, which wraps around so every rank gets `count` indices.
std::vector<size_t> rank_slice(const std::vector<size_t>& order, size_t rank, size_t count) {
  std::vector<size_t> slice(count);
  for (size_t i = 0; i < count; ++i) {
    slice[i] = order.empty() ? 0 : order[(rank * count + i) % order.size()];
  }
  return order.empty() ? std::vector<size_t>{} : slice;
}

std::optional<std::vector<size_t>> next_slice(const std::vector<size_t>& indices, size_t& index,
                                              size_t batch_size) {
  const size_t count = std::min(batch_size, indices.size() - index);
  if (count == 0) {
    return std::nullopt;
  }
  std::vector<size_t> batch(indices.begin() + static_cast<std::ptrdiff_t>(index),
                            indices.begin() + static_cast<std::ptrdiff_t>(index + count));
  index += count;
  return batch;
}
}  // namespace

DistributedRandomSampler::DistributedRandomSampler(size_t size, size_t num_replicas, size_t rank,
                                                   bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  check_replicas(num_replicas, rank, "DistributedRandomSampler");
  populate_indices();
}

// libtorch's partition, so that an epoch gives each rank the same indices as there: the first
// num_replicas * local_sample_count indices (without allow_duplicates the last ones are left
// out; with it 0, 1, ... are repeated to fill up), shuffled by std::mt19937 seeded with the
// epoch alone (every replica draws the same permutation), then cut into consecutive slices, one
// per rank.
void DistributedRandomSampler::populate_indices() {
  const size_t local = local_sample_count();
  const size_t total = num_replicas_ == 1 ? size_ : local * num_replicas_;
  std::vector<size_t> order(total);
  for (size_t i = 0; i < total; ++i) order[i] = i < size_ ? i : (i - size_) % size_;
  std::mt19937 rng(static_cast<std::mt19937::result_type>(epoch_));
  std::shuffle(order.begin(), order.end(), rng);
  all_indices_ = size_ == 0 ? std::vector<size_t>{} : rank_slice(order, rank_, local);
  sample_index_ = 0;
}

void DistributedRandomSampler::reset(std::optional<size_t> new_size) {
  if (new_size) {
    size_ = *new_size;
  }
  populate_indices();
}

std::optional<std::vector<size_t>> DistributedRandomSampler::next(size_t batch_size) {
  return next_slice(all_indices_, sample_index_, batch_size);
}

DistributedSequentialSampler::DistributedSequentialSampler(size_t size, size_t num_replicas,
                                                           size_t rank, bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  check_replicas(num_replicas, rank, "DistributedSequentialSampler");
  populate_indices();
}

void DistributedSequentialSampler::populate_indices() {
  std::vector<size_t> order(size_);
  std::iota(order.begin(), order.end(), size_t{0});
  all_indices_ = rank_slice(order, rank_, local_sample_count());
  sample_index_ = 0;
}

void DistributedSequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size) {
    size_ = *new_size;
  }
  populate_indices();
}

std::optional<std::vector<size_t>> DistributedSequentialSampler::next(size_t batch_size) {
  return next_slice(all_indices_, sample_index_, batch_size);
}

}  // namespace brasa::data::samplers
