// Sequential, random and stream samplers.

#include <algorithm>
#include <numeric>

#include "brasa/core/error.h"
#include "brasa/data/samplers/random.h"
#include "brasa/data/samplers/sequential.h"
#include "brasa/data/samplers/stream.h"
#include "brasa/ops/factory.h"

namespace brasa::data::samplers {

SequentialSampler::SequentialSampler(size_t size) : size_(size) {}

void SequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size) {
    size_ = *new_size;
  }
  index_ = 0;
}

std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  const size_t count = std::min(batch_size, size_ - index_);
  if (count == 0) {
    return std::nullopt;
  }
  std::vector<size_t> batch(count);
  std::iota(batch.begin(), batch.end(), index_);
  index_ += count;
  return batch;
}

RandomSampler::RandomSampler(int64_t size, ScalarType index_dtype)
    : RandomSampler(size, Generator(), index_dtype) {}

RandomSampler::RandomSampler(int64_t size, Generator generator, ScalarType index_dtype)
    : index_dtype_(index_dtype), generator_(std::move(generator)) {
  BRASA_CHECK(size >= 0, "RandomSampler: size must be non-negative, got ", size);
  BRASA_CHECK_TYPE(index_dtype == kInt64 || index_dtype == kInt32 || index_dtype == kInt16,
                   "RandomSampler: index_dtype must be an integer type, got ", index_dtype);
  reset(static_cast<size_t>(size));
}

RandomSampler::~RandomSampler() = default;

void RandomSampler::reset(std::optional<size_t> new_size) {
  const int64_t size = new_size ? static_cast<int64_t>(*new_size) : indices_.numel();
  std::optional<Generator> generator;
  if (generator_.defined()) {
    generator = generator_;
  }
  indices_ = brasa::randperm(size, generator, TensorOptions().dtype(kInt64));
  index_ = 0;
}

std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  const int64_t count = std::min(static_cast<int64_t>(batch_size), indices_.numel() - index_);
  if (count <= 0) {
    return std::nullopt;
  }
  const int64_t* data = indices_.data_ptr<int64_t>() + index_;
  std::vector<size_t> batch(data, data + count);
  index_ += count;
  return batch;
}

void StreamSampler::reset(std::optional<size_t> new_size) {
  if (new_size) {
    epoch_size_ = *new_size;
  }
  examples_retrieved_so_far_ = 0;
}

std::optional<BatchSize> StreamSampler::next(size_t batch_size) {
  const size_t count = std::min(batch_size, epoch_size_ - examples_retrieved_so_far_);
  if (count == 0) {
    return std::nullopt;
  }
  examples_retrieved_so_far_ += count;
  return BatchSize(count);
}

}  // namespace brasa::data::samplers
