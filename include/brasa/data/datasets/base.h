#pragma once
// BatchDataset / Dataset / StreamDataset: the dataset interfaces of torch::data::datasets.

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/core/array_ref.h"
#include "brasa/data/example.h"

namespace brasa::data::datasets {

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
/// T itself, or the T inside std::optional<T>.
template <typename T>
struct unwrap_optional {
  using type = T;
};
template <typename T>
struct unwrap_optional<std::optional<T>> {
  using type = T;
};
}  // namespace detail

template <typename Source, typename AppliedTransform>
class MapDataset;
template <typename D, typename T>
MapDataset<D, T> map(D dataset, T transform);

/// A dataset that answers a whole batch request (by default a list of indices) at once.
/// `is_stateful` is true when Batch is an std::optional: such a dataset (see StatefulDataset)
/// decides itself what comes next and says nullopt when the epoch is over, and
/// make_data_loader gives it a StatefulDataLoader, which has no sampler.
template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = ArrayRef<size_t>>
class BatchDataset {
 public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  constexpr static bool is_stateful = detail::is_optional<Batch>::value;

  virtual ~BatchDataset() = default;

  virtual Batch get_batch(BatchRequest request) = 0;
  /// The number of examples, or nullopt for an unsized stream.
  virtual std::optional<size_t> size() const = 0;

  /// A new dataset applying `transform` to each batch of this one.
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) & {
    return datasets::map(static_cast<Self&>(*this), std::move(transform));
  }
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) && {
    return datasets::map(std::move(static_cast<Self&>(*this)), std::move(transform));
  }
};

/// A dataset of single examples addressed by index; get_batch gathers get(i) for each index.
template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
 public:
  using ExampleType = SingleExample;

  /// Throws IndexError (or the dataset's own error) for an out-of-range index.
  virtual ExampleType get(size_t index) = 0;

  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (const auto i : indices) {
      batch.push_back(get(i));
    }
    return batch;
  }
};

/// A dataset whose batch request is just a batch size (see samplers::StreamSampler).
template <typename Self, typename Batch = std::vector<Example<>>>
using StreamDataset = BatchDataset<Self, Batch, size_t>;

}  // namespace brasa::data::datasets
