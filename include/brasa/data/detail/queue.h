#pragma once
// detail::Queue<T>: the blocking FIFO between a data loader and its worker threads.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "brasa/core/error.h"

namespace brasa::data::detail {

/// Thread-safe: any thread may push, pop or clear.
template <typename T>
class Queue {
 public:
  void push(T value) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      items_.push_back(std::move(value));
    }
    not_empty_.notify_one();
  }

  /// Waits for a value (at most `timeout`, then throws brasa::RuntimeError with libtorch's text).
  T pop(std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto ready = [this] { return !items_.empty(); };
    if (timeout) {
      BRASA_CHECK_TYPED(RuntimeError, not_empty_.wait_for(lock, *timeout, ready),
                        "DataLoader: Timeout in DataLoader queue while waiting for next batch "
                        "(timeout was ",
                        timeout->count(), " ms)");
    } else {
      not_empty_.wait(lock, ready);
    }
    T value = std::move(items_.front());
    items_.pop_front();
    return value;
  }

  /// Drops every queued value and says how many there were.
  size_t clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t count = items_.size();
    items_.clear();
    return count;
  }

 private:
  std::mutex mutex_;
  std::condition_variable not_empty_;
  std::deque<T> items_;
};

}  // namespace brasa::data::detail
