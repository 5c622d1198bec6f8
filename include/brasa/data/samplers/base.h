#pragma once
// Sampler: produces the batch requests (index lists) a data loader hands to its dataset.

#include <cstddef>
#include <optional>
#include <vector>

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
