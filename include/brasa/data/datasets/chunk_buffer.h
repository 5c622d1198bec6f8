#pragma once
// detail::ChunkBatchBuffer: where a ChunkDataset's preloader threads leave the batches they cut
// from the chunks they read, until get_batch takes them.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <utility>

#include "brasa/core/error.h"
#include "brasa/data/worker_exception.h"

namespace brasa::data::datasets::detail {

/// Thread-safe. Writers (preloaders) block while `capacity` examples or more are queued;
/// readers block until the front entry is a whole batch or an error, or the buffer is closed.
/// Invariants, under mutex_: only the last entry may hold fewer than batch_size examples, and
/// that short entry is never an error, so the next chunk tops it up and no example is dropped
/// around an error; no entry is empty; queued_examples_ counts the examples of all entries.
/// Writers never wait for readers that wait for them: capacity >= batch_size, so a full buffer
/// always has a whole batch at its front.
template <typename UnwrappedBatch, typename ExampleSampler>
class ChunkBatchBuffer {
 public:
  ChunkBatchBuffer(size_t batch_size, ExampleSampler& example_sampler, size_t capacity,
                   size_t writers)
      : batch_size_(batch_size),
        capacity_(capacity),
        writers_(writers),
        example_sampler_(example_sampler) {}

  /// The next batch, in the order the example sampler cut them; nullopt once the buffer is
  /// closed and empty (a short last batch comes first). An error a writer left is thrown here
  /// as WorkerException (original_exception is the reader's own).
  std::optional<UnwrappedBatch> get_batch() {
    std::unique_lock<std::mutex> lock(mutex_);
    readable_.wait(lock, [this] { return closed_ || front_ready(); });
    if (entries_.empty()) return std::nullopt;
    Entry entry = std::move(entries_.front());
    entries_.pop_front();
    queued_examples_ -= entry.batch.size();
    lock.unlock();
    writable_.notify_all();
    if (entry.error) throw WorkerException(entry.error);
    return std::move(entry.batch);
  }

  /// Cuts `data` (one or several chunks) into batches in the example sampler's order, topping up
  /// a short last batch first. Waits while the buffer is full; drops `data` once it is closed.
  void add_chunk(UnwrappedBatch data) {
    std::unique_lock<std::mutex> lock(mutex_);
    writable_.wait(lock, [this] { return closed_ || queued_examples_ < capacity_; });
    if (closed_) return;
    const size_t count = data.size();
    example_sampler_.reset(count);
    size_t remaining = count;
    try {
      if (short_last_batch()) {
        fill(entries_.back().batch, std::min(remaining, batch_size_ - entries_.back().batch.size()),
             data, remaining);
      }
      while (remaining > 0) {
        entries_.emplace_back();
        entries_.back().batch.reserve(std::min(remaining, batch_size_));
        fill(entries_.back().batch, std::min(remaining, batch_size_), data, remaining);
      }
    } catch (...) {  // a bad example sampler: keep the invariants, let the preloader report it
      if (!entries_.empty() && !entries_.back().error && entries_.back().batch.empty()) {
        entries_.pop_back();
      }
      lock.unlock();
      readable_.notify_all();
      throw;
    }
    lock.unlock();
    readable_.notify_all();
  }

  /// Queues an error for a reader, ahead of a short last batch (which later chunks may still
  /// fill). Dropped once the buffer is closed.
  void add_error(std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return;
      auto position = short_last_batch() ? std::prev(entries_.end()) : entries_.end();
      entries_.insert(position, Entry{UnwrappedBatch(), std::move(error)});
    }
    readable_.notify_all();
  }

  /// A writer is done: the last one closes the buffer, so readers drain it and then get nullopt.
  void writer_done() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (writers_ > 0 && --writers_ == 0) close_locked();
  }

  /// Wakes every waiting reader and writer: writers drop what they bring, readers drain.
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    close_locked();
  }

 private:
  struct Entry {
    UnwrappedBatch batch;
    std::exception_ptr error;
  };

  bool front_ready() const {
    return !entries_.empty() &&
           (entries_.front().error || entries_.front().batch.size() >= batch_size_);
  }
  bool short_last_batch() const {
    return !entries_.empty() && !entries_.back().error &&
           entries_.back().batch.size() < batch_size_;
  }
  void close_locked() {
    closed_ = true;
    readable_.notify_all();
    writable_.notify_all();
  }

  // Moves `n` examples of `data`, in the example sampler's order, to the end of `batch`.
  void fill(UnwrappedBatch& batch, size_t n, UnwrappedBatch& data, size_t& remaining) {
    auto indices = example_sampler_.next(n);
    BRASA_CHECK(indices.has_value() && indices->size() == n,
                "ChunkDataset: the example sampler returned ", indices ? indices->size() : 0,
                " indices where ", n, " were needed (", data.size(), " examples in the chunk)");
    for (const size_t i : *indices) {
      BRASA_CHECK_INDEX(i < data.size(), "ChunkDataset: the example sampler returned index ", i,
                        " for a chunk of ", data.size(), " examples");
      batch.push_back(std::move(data[i]));
      ++queued_examples_;
      --remaining;
    }
  }

  const size_t batch_size_;
  const size_t capacity_;
  size_t writers_;
  ExampleSampler& example_sampler_;  // used only under mutex_

  std::mutex mutex_;
  std::condition_variable readable_, writable_;
  std::deque<Entry> entries_;
  size_t queued_examples_ = 0;
  bool closed_ = false;
};

}  // namespace brasa::data::datasets::detail
