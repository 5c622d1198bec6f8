#pragma once
// DataLoaderOptions: how make_data_loader batches, prefetches and orders.

#include <chrono>
#include <cstddef>
#include <optional>

#include "brasa/core/options_arg.h"

namespace brasa::data {

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  DataLoaderOptions(size_t batch_size)
      : batch_size_(batch_size) {}  // NOLINT: implicit like libtorch

  /// Examples per batch.
  BRASA_ARG(size_t, batch_size) = 1;
  /// Worker threads that produce batches; 0 produces them on the calling thread.
  BRASA_ARG(size_t, workers) = 0;
  /// Batches requested ahead at most (default 2 * workers).
  BRASA_ARG(std::optional<size_t>, max_jobs);
  /// How long to wait for a worker's batch before throwing.
  BRASA_ARG(std::optional<std::chrono::milliseconds>, timeout);
  /// Deliver batches in the sampler's order (else as workers finish them).
  BRASA_ARG(bool, enforce_ordering) = true;
  /// Drop a last batch smaller than batch_size.
  BRASA_ARG(bool, drop_last) = false;
};

/// The options with defaults filled in.
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(const DataLoaderOptions& options)
      : batch_size(options.batch_size()),
        workers(options.workers()),
        max_jobs(options.max_jobs().value_or(2 * workers)),
        timeout(options.timeout()),
        enforce_ordering(options.enforce_ordering()),
        drop_last(options.drop_last()) {}

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  std::optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

}  // namespace brasa::data
