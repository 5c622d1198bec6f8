#pragma once
// StatefulDataLoader: the data loader of a stateful dataset (one whose get_batch returns an
// optional batch): no sampler, every request is the batch size, the epoch ends when the dataset
// says nullopt.

#include <algorithm>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/data/dataloader_options.h"
#include "brasa/data/detail/data_shuttle.h"
#include "brasa/data/detail/sequencers.h"
#include "brasa/data/iterator.h"
#include "brasa/data/worker_exception.h"

namespace brasa::data {

/// begin() resets the dataset and starts an epoch. Without workers each step calls
/// dataset.get_batch(batch_size) on the calling thread and lets its exceptions through
/// unchanged. With `workers` threads, all of them call get_batch on the loader's one dataset
/// (which must be thread-safe: a SharedBatchDataset over a ChunkDataset is), at most max_jobs
/// requests ahead; results come in request order when enforce_ordering (OrderedSequencer), a
/// worker's exception is rethrown as WorkerException, and a nullopt from a worker ends its line
/// of requests: the epoch is over once every request in flight has come back. drop_last does not
/// apply (the dataset decides its batches).
template <typename Dataset>
class StatefulDataLoader {
 public:
  using BatchType = typename Dataset::BatchType::value_type;
  using BatchRequestType = typename Dataset::BatchRequestType;

  StatefulDataLoader(Dataset dataset, DataLoaderOptions options)
      : options_(std::move(options)), dataset_(std::move(dataset)) {
    BRASA_CHECK(options_.batch_size > 0, "DataLoader: batch_size must be positive");
    options_.max_jobs = std::max<size_t>(options_.max_jobs, 1);
    sequencer_ = new_sequencer();
    for (size_t w = 0; w < options_.workers; ++w) {
      workers_.emplace_back([this] { worker_loop(); });
    }
  }
  StatefulDataLoader(const StatefulDataLoader&) = delete;
  StatefulDataLoader& operator=(const StatefulDataLoader&) = delete;
  ~StatefulDataLoader() { join(); }

  /// Resets the dataset and starts an epoch. Throws brasa::Error while requests of the previous
  /// epoch are still in flight (an iterator abandoned before its end, with workers).
  Iterator<BatchType> begin() {
    BRASA_CHECK(shuttle_.in_flight_jobs() == 0,
                "DataLoader: Attempted to get a new DataLoader iterator while another iterator "
                "is not yet exhausted");
    dataset_.reset();
    sequence_number_ = 0;
    sequencer_ = new_sequencer();
    for (size_t j = 0; j < options_.max_jobs && !workers_.empty(); ++j) push_request();
    return Iterator<BatchType>([this] { return next(); });
  }
  Iterator<BatchType> end() { return Iterator<BatchType>(); }

  /// Waits for the requests in flight, then stops and joins the workers (the destructor calls it).
  void join() {
    if (joined_) return;
    joined_ = true;
    shuttle_.drain();
    for (size_t w = 0; w < workers_.size(); ++w) shuttle_.push_job(Job{std::nullopt, 0});
    for (auto& worker : workers_) worker.join();
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }

 private:
  struct Job {
    std::optional<BatchRequestType> request;  // nullopt: the worker quits
    size_t sequence_number;
  };
  struct Result {
    size_t sequence_number;
    std::optional<BatchType> batch;
    std::exception_ptr exception;
  };

  std::unique_ptr<detail::sequencers::Sequencer<Result>> new_sequencer() const {
    if (options_.enforce_ordering) {
      return std::make_unique<detail::sequencers::OrderedSequencer<Result>>(options_.max_jobs);
    }
    return std::make_unique<detail::sequencers::NoSequencer<Result>>();
  }

  void push_request() {
    shuttle_.push_job(Job{BatchRequestType(options_.batch_size), sequence_number_++});
  }

  std::optional<BatchType> next() {
    if (workers_.empty()) return dataset_.get_batch(BatchRequestType(options_.batch_size));
    while (auto result =
               sequencer_->next([this] { return shuttle_.pop_result(options_.timeout); })) {
      if (result->exception) throw WorkerException(result->exception);
      if (result->batch) {
        push_request();  // keep max_jobs in flight while the dataset has batches
        return std::move(result->batch);
      }
    }
    return std::nullopt;
  }

  void worker_loop() {
    while (true) {
      Job job = shuttle_.pop_job();
      if (!job.request) return;
      Result result{job.sequence_number, std::nullopt, nullptr};
      try {
        result.batch = dataset_.get_batch(std::move(*job.request));
      } catch (...) {
        result.exception = std::current_exception();
      }
      shuttle_.push_result(std::move(result));
    }
  }

  FullDataLoaderOptions options_;
  Dataset dataset_;
  size_t sequence_number_ = 0;
  std::unique_ptr<detail::sequencers::Sequencer<Result>> sequencer_;
  detail::DataShuttle<Job, Result> shuttle_;
  std::vector<std::thread> workers_;
  bool joined_ = false;
};

}  // namespace brasa::data
