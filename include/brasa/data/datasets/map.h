#pragma once
// MapDataset: a dataset whose batches are another dataset's batches passed through a transform.

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "brasa/data/datasets/base.h"

namespace brasa::data::datasets {

namespace detail {
/// std::optional<T> when C (the batches of a stateful dataset), else T.
template <bool C, typename T>
using optional_if_t = std::conditional_t<C, std::optional<T>, T>;
}  // namespace detail

/// Over a stateful source the batches stay optional: nullopt passes through untransformed, and
/// reset() resets the source.
template <typename SourceDataset, typename AppliedTransform>
class MapDataset
    : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                          detail::optional_if_t<SourceDataset::is_stateful,
                                                typename AppliedTransform::OutputBatchType>,
                          typename SourceDataset::BatchRequestType> {
 public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType =
      detail::optional_if_t<SourceDataset::is_stateful, typename AppliedTransform::OutputBatchType>;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  OutputBatchType get_batch(BatchRequestType indices) override {
    if constexpr (SourceDataset::is_stateful) {
      auto batch = dataset_.get_batch(std::move(indices));
      if (!batch) return std::nullopt;
      return transform_.apply_batch(std::move(*batch));
    } else {
      return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
    }
  }
  std::optional<size_t> size() const noexcept override { return dataset_.size(); }
  /// Resets the source (a stateful one; instantiated only when called).
  void reset() { dataset_.reset(); }

  const SourceDataset& dataset() noexcept { return dataset_; }
  const AppliedTransform& transform() noexcept { return transform_; }

 private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

/// `dataset.map(transform)`; the transform's input batch type must be the dataset's batch type
/// (for a stateful dataset, the type inside its optional batches).
template <typename DatasetType, typename TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset, TransformType transform) {
  using Unwrapped = typename detail::unwrap_optional<typename DatasetType::BatchType>::type;
  static_assert(std::is_same_v<Unwrapped, typename TransformType::InputBatchType>,
                "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

}  // namespace brasa::data::datasets
