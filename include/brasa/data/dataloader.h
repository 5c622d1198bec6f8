#pragma once
// StatelessDataLoader and make_data_loader: batches of a dataset, produced by worker threads
// (a stateful dataset gets a StatefulDataLoader, brasa/data/dataloader/stateful.h).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "brasa/archive/archive.h"
#include "brasa/core/error.h"
#include "brasa/data/dataloader/stateful.h"
#include "brasa/data/dataloader_options.h"
#include "brasa/data/iterator.h"
#include "brasa/data/samplers/random.h"
#include "brasa/data/worker_exception.h"

namespace brasa::data {

/// Iterating (`for (auto& batch : *loader)`) runs one epoch: the sampler's requests are answered by
/// `workers` threads (each with its own copy of the dataset), at most max_jobs ahead, delivered in
/// request order when enforce_ordering. A worker's exception is rethrown by the iteration as
/// WorkerException; a batch that takes longer than timeout throws brasa::RuntimeError. Destroying
/// the loader mid-epoch stops and joins the workers (each finishes the batch it is on).
template <typename Dataset, typename Sampler>
class StatelessDataLoader {
 public:
  using BatchType = typename Dataset::BatchType;
  using BatchRequestType = typename Sampler::BatchRequestType;

  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options)
      : options_(options), sampler_(std::move(sampler)) {
    BRASA_CHECK(options_.batch_size > 0, "DataLoader: batch_size must be positive");
    if (options_.workers == 0) {
      main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
      return;
    }
    options_.max_jobs = std::max<size_t>(options_.max_jobs, 1);
    for (size_t w = 0; w < options_.workers; ++w) {
      workers_.emplace_back([this, dataset]() mutable { worker_loop(dataset); });
    }
  }
  StatelessDataLoader(const StatelessDataLoader&) = delete;
  StatelessDataLoader& operator=(const StatelessDataLoader&) = delete;
  ~StatelessDataLoader() { join(); }

  /// Starts an epoch (or, after load(), continues the saved one). Throws brasa::Error while the
  /// previous epoch still has batches in flight.
  Iterator<BatchType> begin() {
    BRASA_CHECK(in_flight_ == 0,
                "DataLoader: Attempted to get a new DataLoader iterator while another iterator "
                "is not yet exhausted");
    if (resume_) {
      auto resume = std::move(resume_);
      start_epoch(resume.get());
      for (size_t skip = resume_batches_; skip > 0 && next_request(); --skip) ++delivered_;
      pending_ = next_request();
      if (!pending_) start_epoch(nullptr);  // the saved epoch had no batches left
    } else {
      start_epoch(nullptr);
    }
    // With workers, the epoch's first requests go out now, as in libtorch (so a second begin()
    // before this epoch is exhausted is an error); batches are still taken on first use.
    if (!main_thread_dataset_) prefetch();
    return Iterator<BatchType>([this] { return next(); });
  }
  Iterator<BatchType> end() { return Iterator<BatchType>(); }

  /// Writes the position in the epoch (a brasa extension, like torchdata's stateful loader): the
  /// sampler as it was when the epoch began and the number of batches delivered since, so a
  /// loader built the same way continues with exactly the next batch after load(). Batches
  /// prefetched by workers but not delivered are not counted. Needs a copyable sampler that
  /// implements save()/load() (NotImplementedError otherwise).
  void save(serialize::OutputArchive& archive) const {
    if constexpr (std::is_copy_constructible_v<Sampler>) {
      if (epoch_start_) {  // before the first epoch there is no position to keep
        serialize::OutputArchive sampler;
        epoch_start_->save(sampler);
        archive.write("sampler", sampler);
      }
    } else {
      BRASA_THROW(NotImplementedError, "DataLoader::save needs a copyable sampler");
    }
    archive.write("batches_delivered", IValue(static_cast<int64_t>(delivered_)));
  }
  /// Makes the next begin() continue the epoch save() described (see save()).
  void load(serialize::InputArchive& archive) {
    auto sampler = std::make_unique<serialize::InputArchive>();
    if (!archive.try_read("sampler", *sampler)) sampler.reset();
    IValue batches;
    archive.read("batches_delivered", batches);
    BRASA_CHECK(batches.isInt() && batches.toInt() >= 0,
                "DataLoader::load: 'batches_delivered' must be a non-negative int");
    resume_ = std::move(sampler);
    resume_batches_ = static_cast<size_t>(batches.toInt());
  }
  /// Stops and joins the workers (the destructor calls it).
  void join() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    jobs_ready_.notify_all();
    for (auto& worker : workers_) {
      if (worker.joinable()) {
        worker.join();
      }
    }
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }
  /// The sampler (e.g. to call DistributedSampler::set_epoch before an epoch).
  Sampler& sampler() noexcept { return sampler_; }

 private:
  struct Job {
    size_t sequence;
    BatchRequestType request;
  };
  struct Result {
    std::optional<BatchType> batch;
    std::exception_ptr exception;
  };

  // Resets the sampler, or restores it from `saved`, and snapshots it for save().
  void start_epoch(serialize::InputArchive* saved) {
    if (saved != nullptr) {
      sampler_.load(*saved);
    } else {
      sampler_.reset();
    }
    if constexpr (std::is_copy_constructible_v<Sampler>) epoch_start_.emplace(sampler_);
    sampler_exhausted_ = false;
    delivered_ = 0;
    pending_.reset();
  }

  std::optional<BatchRequestType> next_request() {
    if (pending_) {
      auto request = std::move(pending_);
      pending_.reset();
      return request;
    }
    if (sampler_exhausted_) {
      return std::nullopt;
    }
    auto request = sampler_.next(options_.batch_size);
    if (!request || request->size() == 0 ||
        (options_.drop_last && request->size() < options_.batch_size)) {
      sampler_exhausted_ = true;
      return std::nullopt;
    }
    return request;
  }

  // Hands the workers requests until max_jobs are in flight or the sampler is exhausted.
  void prefetch() {
    while (in_flight_ < options_.max_jobs) {
      auto request = next_request();
      if (!request) {
        break;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(Job{next_sequence_ + in_flight_, std::move(*request)});
      }
      ++in_flight_;
      jobs_ready_.notify_one();
    }
  }

  std::optional<BatchType> next() {
    if (main_thread_dataset_) {
      auto request = next_request();
      if (!request) {
        return std::nullopt;
      }
      ++delivered_;
      return main_thread_dataset_->get_batch(std::move(*request));
    }
    prefetch();
    if (in_flight_ == 0) {
      return std::nullopt;
    }
    Result result = wait_for_result();
    --in_flight_;
    ++delivered_;
    ++next_sequence_;
    if (result.exception) {
      throw WorkerException(result.exception);
    }
    return std::move(result.batch);
  }

  Result wait_for_result() {
    std::unique_lock<std::mutex> lock(mutex_);
    auto ready = [this] {
      return options_.enforce_ordering ? results_.count(next_sequence_) > 0 : !results_.empty();
    };
    if (options_.timeout) {
      BRASA_CHECK_TYPED(RuntimeError, results_ready_.wait_for(lock, *options_.timeout, ready),
                        "DataLoader: Timeout in DataLoader queue while waiting for next batch "
                        "(timeout was ",
                        options_.timeout->count(), " ms)");
    } else {
      results_ready_.wait(lock, ready);
    }
    auto it = options_.enforce_ordering ? results_.find(next_sequence_) : results_.begin();
    Result result = std::move(it->second);
    results_.erase(it);
    return result;
  }

  void worker_loop(Dataset& dataset) {
    while (true) {
      std::optional<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        jobs_ready_.wait(lock, [this] { return quit_ || !jobs_.empty(); });
        if (quit_) {
          return;
        }
        job.emplace(std::move(jobs_.front()));
        jobs_.pop_front();
      }
      Result result;
      try {
        result.batch = dataset.get_batch(std::move(job->request));
      } catch (...) {
        result.exception = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        results_.emplace(job->sequence, std::move(result));
      }
      results_ready_.notify_all();
    }
  }

  FullDataLoaderOptions options_;
  Sampler sampler_;
  std::unique_ptr<Dataset> main_thread_dataset_;
  bool sampler_exhausted_ = false;
  std::optional<BatchRequestType> pending_;          // a request taken ahead by a resuming begin()
  std::optional<Sampler> epoch_start_;               // the sampler right after this epoch's reset
  size_t delivered_ = 0;                             // batches delivered in this epoch
  std::unique_ptr<serialize::InputArchive> resume_;  // set by load(), used by the next begin()
  size_t resume_batches_ = 0;
  size_t in_flight_ = 0;      // requests handed to workers and not yet delivered
  size_t next_sequence_ = 0;  // sequence number of the next batch to deliver

  std::mutex mutex_;  // guards jobs_, results_, quit_
  std::condition_variable jobs_ready_, results_ready_;
  std::deque<Job> jobs_;
  std::map<size_t, Result> results_;
  bool quit_ = false;
  std::vector<std::thread> workers_;
};

/// A loader over `dataset` drawing requests from `sampler` (a stateless dataset).
template <typename Dataset, typename Sampler, typename = std::enable_if_t<!Dataset::is_stateful>>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset,
                                                                        Sampler sampler,
                                                                        DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(
      std::move(dataset), std::move(sampler), std::move(options));
}

/// A loader with a `Sampler(dataset.size())` (RandomSampler by default) over a stateless dataset.
/// Throws brasa::Error for a dataset without a size.
template <
    typename Sampler = samplers::RandomSampler, typename Dataset,
    typename = std::enable_if_t<!Dataset::is_stateful && std::is_constructible_v<Sampler, size_t>>>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(
    Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  const std::optional<size_t> size = dataset.size();
  BRASA_CHECK(size.has_value(),
              "make_data_loader: Expected the dataset to be sized in order to construct the "
              "Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), std::move(options));
}

/// The loader of a stateful dataset (see StatefulDataLoader): no sampler.
template <typename Dataset, typename = std::enable_if_t<Dataset::is_stateful>>
std::unique_ptr<StatefulDataLoader<Dataset>> make_data_loader(
    Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  return std::make_unique<StatefulDataLoader<Dataset>>(std::move(dataset), std::move(options));
}

}  // namespace brasa::data
