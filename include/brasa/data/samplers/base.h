#pragma once
// Sampler: produces the batch requests (index lists) a data loader hands to its dataset.

#include <cstddef>
#include <optional>
#include <vector>

#include "brasa/core/error.h"

namespace brasa::serialize {
class OutputArchive;
class InputArchive;
}  // namespace brasa::serialize

namespace brasa::data::samplers {

template <typename BatchRequest = std::vector<size_t>>
class Sampler {
 public:
  using BatchRequestType = BatchRequest;

  virtual ~Sampler() = default;
  /// Starts a new epoch, optionally over a dataset of a new size.
  virtual void reset(std::optional<size_t> new_size) = 0;
  /// The next request of at most batch_size examples; nullopt when the epoch is exhausted.
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
  /// Writes the position in the epoch (and what the epoch's order depends on) so that load()
  /// continues exactly there. brasa's samplers implement both; the defaults throw
  /// NotImplementedError (libtorch makes them pure virtual).
  virtual void save(serialize::OutputArchive& /*archive*/) const {
    BRASA_THROW(NotImplementedError, "this sampler does not implement save()");
  }
  virtual void load(serialize::InputArchive& /*archive*/) {
    BRASA_THROW(NotImplementedError, "this sampler does not implement load()");
  }
};

/// A batch request that is not a list of indices knows its size (for drop_last).
struct CustomBatchRequest {
  CustomBatchRequest() = default;
  CustomBatchRequest(const CustomBatchRequest&) = default;
  CustomBatchRequest(CustomBatchRequest&&) noexcept = default;
  CustomBatchRequest& operator=(const CustomBatchRequest&) = default;
  CustomBatchRequest& operator=(CustomBatchRequest&&) noexcept = default;
  virtual ~CustomBatchRequest() = default;
  virtual size_t size() const = 0;
};

}  // namespace brasa::data::samplers
