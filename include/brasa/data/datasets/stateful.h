#pragma once
// StatefulDataset: a dataset that keeps its own place in the epoch (torch::data::datasets).

#include <cstddef>
#include <optional>
#include <vector>

#include "brasa/data/datasets/base.h"
#include "brasa/data/example.h"

namespace brasa::serialize {
class OutputArchive;
class InputArchive;
}  // namespace brasa::serialize

namespace brasa::data::datasets {

/// get_batch(request) returns the next batch, or nullopt once the epoch is exhausted; reset()
/// starts a new epoch (the StatefulDataLoader calls it at every begin()). The request is, by
/// default, the loader's batch size. With DataLoaderOptions::workers > 0 every worker calls
/// get_batch on this one object, so it must be safe to call from several threads at once.
/// save/load write and read its position (`torch::save(dataset, path)` works through the
/// archive operators below).
template <typename Self, typename Batch = std::vector<Example<>>, typename BatchRequest = size_t>
class StatefulDataset : public BatchDataset<Self, std::optional<Batch>, BatchRequest> {
 public:
  virtual void reset() = 0;
  virtual void save(serialize::OutputArchive& archive) const = 0;
  virtual void load(serialize::InputArchive& archive) = 0;
};

template <typename... Args>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const StatefulDataset<Args...>& dataset) {
  dataset.save(archive);
  return archive;
}

template <typename... Args>
serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                    StatefulDataset<Args...>& dataset) {
  dataset.load(archive);
  return archive;
}

}  // namespace brasa::data::datasets
