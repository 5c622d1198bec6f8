#pragma once
// MapDataset: a dataset whose batches are another dataset's batches passed through a transform.

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "brasa/data/datasets/base.h"

namespace brasa::data::datasets {

template <typename SourceDataset, typename AppliedTransform>
class MapDataset : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                                       typename AppliedTransform::OutputBatchType,
                                       typename SourceDataset::BatchRequestType> {
 public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType = typename AppliedTransform::OutputBatchType;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  OutputBatchType get_batch(BatchRequestType indices) override {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }
  std::optional<size_t> size() const noexcept override { return dataset_.size(); }

  const SourceDataset& dataset() noexcept { return dataset_; }
  const AppliedTransform& transform() noexcept { return transform_; }

 private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

/// `dataset.map(transform)`; the transform's input batch type must be the dataset's batch type.
template <typename DatasetType, typename TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset, TransformType transform) {
  static_assert(
      std::is_same_v<typename DatasetType::BatchType, typename TransformType::InputBatchType>,
      "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

}  // namespace brasa::data::datasets
