#pragma once
// detail::DataShuttle<Job, Result>: the job and result queues of a data loader, counting the
// jobs whose results have not been taken yet.

#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

#include "brasa/data/detail/queue.h"

namespace brasa::data::detail {

/// push_job / pop_result / drain belong to the loader's thread; pop_job / push_result to workers.
template <typename Job, typename Result>
class DataShuttle {
 public:
  void push_job(Job job) {
    new_jobs_.push(std::move(job));
    ++in_flight_jobs_;
  }
  void push_result(Result result) { results_.push(std::move(result)); }
  Job pop_job() { return new_jobs_.pop(); }

  /// The next result, or nullopt when no job is in flight (so it never waits for nothing).
  std::optional<Result> pop_result(
      std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (in_flight_jobs_ == 0) return std::nullopt;
    Result result = results_.pop(timeout);
    --in_flight_jobs_;
    return result;
  }

  /// Forgets the jobs no worker has taken and waits for the results of the others.
  void drain() {
    in_flight_jobs_ -= new_jobs_.clear();
    while (in_flight_jobs_ > 0) pop_result();
  }

  size_t in_flight_jobs() const noexcept { return in_flight_jobs_; }

 private:
  Queue<Job> new_jobs_;
  Queue<Result> results_;
  size_t in_flight_jobs_ = 0;
};

}  // namespace brasa::data::detail
