#pragma once
// SharedBatchDataset: a dataset held by shared_ptr, so copies of it (one per data loader worker,
// the loader's own) all use the same object.

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "brasa/core/error.h"
#include "brasa/data/datasets/base.h"

namespace brasa::data::datasets {

/// Batches and size are the underlying dataset's; it is stateful when that one is. Use it for a
/// dataset that must not be copied (a ChunkDataset with its threads) or whose state the workers
/// must share. `*shared` and `shared->` reach the underlying dataset.
template <typename UnderlyingDataset>
class SharedBatchDataset : public BatchDataset<SharedBatchDataset<UnderlyingDataset>,
                                               typename UnderlyingDataset::BatchType,
                                               typename UnderlyingDataset::BatchRequestType> {
 public:
  using BatchType = typename UnderlyingDataset::BatchType;
  using BatchRequestType = typename UnderlyingDataset::BatchRequestType;

  /// Throws brasa::ValueError for a null pointer.
  SharedBatchDataset(std::shared_ptr<UnderlyingDataset> shared_dataset)  // NOLINT: implicit
      : dataset_(std::move(shared_dataset)) {
    BRASA_CHECK(dataset_ != nullptr, "SharedBatchDataset: the dataset pointer is null");
  }

  BatchType get_batch(BatchRequestType request) override {
    return dataset_->get_batch(std::move(request));
  }
  std::optional<size_t> size() const override { return dataset_->size(); }
  /// Resets the underlying (stateful) dataset.
  void reset() { dataset_->reset(); }

  UnderlyingDataset& operator*() { return *dataset_; }
  const UnderlyingDataset& operator*() const { return *dataset_; }
  UnderlyingDataset* operator->() { return dataset_.get(); }
  const UnderlyingDataset* operator->() const { return dataset_.get(); }

 private:
  std::shared_ptr<UnderlyingDataset> dataset_;
};

/// Builds an UnderlyingDataset from `args` (no copy is made) and shares it.
template <typename UnderlyingDataset, typename... Args>
SharedBatchDataset<UnderlyingDataset> make_shared_dataset(Args&&... args) {
  return std::make_shared<UnderlyingDataset>(std::forward<Args>(args)...);
}

}  // namespace brasa::data::datasets
