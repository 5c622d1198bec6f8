#pragma once
// BatchTransform / Transform: what `dataset.map(...)` applies to each batch
// (torch::data::transforms).

#include <utility>
#include <vector>

namespace brasa::data::transforms {

/// Maps a whole batch to a new batch (possibly of another type, e.g. a collation).
template <typename InputBatch, typename OutputBatch>
class BatchTransform {
 public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;

  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

/// Maps each example of a batch on its own.
template <typename Input, typename Output>
class Transform : public BatchTransform<std::vector<Input>, std::vector<Output>> {
 public:
  using InputType = Input;
  using OutputType = Output;

  virtual OutputType apply(InputType input) = 0;

  std::vector<Output> apply_batch(std::vector<Input> input_batch) override {
    std::vector<Output> output_batch;
    output_batch.reserve(input_batch.size());
    for (auto&& input : input_batch) {
      output_batch.push_back(apply(std::move(input)));
    }
    return output_batch;
  }
};

}  // namespace brasa::data::transforms
