#pragma once
// ChunkDataset: a stateful dataset that reads whole chunks (files, file ranges) on preloader
// threads and serves batches cut from them, with ChunkDataReader and ChunkDatasetOptions.

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/core/options_arg.h"
#include "brasa/data/datasets/chunk_buffer.h"
#include "brasa/data/datasets/stateful.h"
#include "brasa/data/samplers/random.h"

namespace brasa::data::datasets {

/// Reads one chunk at a time. A ChunkDataset with several preloaders calls read_chunk from all
/// of them at once, so it must be safe to call concurrently (as in libtorch); chunk_count and
/// reset are called between epochs, with no read in progress.
template <typename ExampleType_, typename ChunkType_ = std::vector<ExampleType_>>
class ChunkDataReader {
 public:
  using ChunkType = ChunkType_;
  using ExampleType = ExampleType_;
  /// The batches a ChunkDataset serves (libtorch's readers declare it; this default lets a
  /// reader that does not still be used).
  using BatchType = ChunkType_;

  virtual ~ChunkDataReader() = default;
  /// The examples of chunk `chunk_index` (< chunk_count()); may throw, see ChunkDataset.
  virtual ChunkType read_chunk(size_t chunk_index) = 0;
  virtual size_t chunk_count() = 0;
  /// Clears any state of the reader; called at the start of every epoch.
  virtual void reset() = 0;
};

/// How a ChunkDataset reads and batches. Throws brasa::ValueError for a zero count or size and
/// for cache_size < batch_size (the cache must hold a whole batch).
struct ChunkDatasetOptions {
  ChunkDatasetOptions() = delete;
  ChunkDatasetOptions(size_t preloader_count, size_t batch_size, size_t cache_size = 2048,
                      size_t cross_chunk_shuffle_count = 1)
      : preloader_count_(preloader_count),
        batch_size_(batch_size),
        cache_size_(cache_size),
        cross_chunk_shuffle_count_(cross_chunk_shuffle_count) {
    validate();
  }

  /// Threads that read chunks ahead of the consumer.
  BRASA_ARG(size_t, preloader_count);
  /// Examples per batch; get_batch must be asked for exactly this many.
  BRASA_ARG(size_t, batch_size);
  /// Examples the buffer holds before the preloaders wait (a chunk in flight may overshoot).
  BRASA_ARG(size_t, cache_size) = 2048;
  /// Chunks read together and shuffled as one by the example sampler (1: no mixing of chunks).
  BRASA_ARG(size_t, cross_chunk_shuffle_count) = 1;

 public:
  /// The constructor's checks, again (ChunkDataset calls it: the setters do not check).
  void validate() const {
    BRASA_CHECK(preloader_count_ > 0,
                "ChunkDatasetOptions: Preloader count is 0. At least one preloader needs to be "
                "specified.");
    BRASA_CHECK(batch_size_ > 0,
                "ChunkDatasetOptions: Batch size is 0. A positive batch size needs to be "
                "specified.");
    BRASA_CHECK(cache_size_ > 0,
                "ChunkDatasetOptions: Cache size is 0. A positive cache size needs to be "
                "specified.");
    BRASA_CHECK(cache_size_ >= batch_size_,
                "ChunkDatasetOptions: Cache size is less than batch size. Cache needs to be "
                "large enough to hold at least one batch. (cache_size ",
                cache_size_, ", batch_size ", batch_size_, ")");
    BRASA_CHECK(cross_chunk_shuffle_count_ > 0,
                "ChunkDatasetOptions: cross_chunk_shuffle_count needs to be greater than 0.");
  }
};

/// Two-level sampling: ChunkSampler orders the chunks of an epoch (over chunk_count() chunks),
/// ExampleSampler orders the examples of each chunk read (reset to the chunk's size). reset()
/// (the StatefulDataLoader calls it at every begin()) stops the previous epoch's preloaders and
/// starts preloader_count new ones; get_batch(batch_size) then returns batch_size examples at a
/// time, the last batch shorter, and nullopt when every chunk has been served. Every example of
/// every chunk comes exactly once per epoch. With one preloader the order is the samplers';
/// with several, chunks arrive in the order they finish reading.
///
/// An exception from read_chunk, the preprocessing policy or the samplers is thrown by a later
/// get_batch as WorkerException (libtorch's type and text: "Caught exception in DataLoader worker
/// thread. Original message: ..."; original_exception rethrows the reader's own); the other
/// chunks are still served, so the consumer may go on.
///
/// save/load write and read the chunk sampler's state: the preloaders run ahead of the
/// consumer, so chunks read but not yet served when saving are skipped after load (libtorch's
/// behaviour). A load before begin() makes the next epoch continue from the saved state, and the
/// epoch after it start afresh. Not copyable: share it with make_shared_dataset.
template <typename ChunkReader, typename ChunkSampler = samplers::RandomSampler,
          typename ExampleSampler = samplers::RandomSampler>
class ChunkDataset final
    : public StatefulDataset<ChunkDataset<ChunkReader, ChunkSampler, ExampleSampler>,
                             typename ChunkReader::BatchType, size_t> {
 public:
  using BatchType = std::optional<typename ChunkReader::BatchType>;
  using UnwrappedBatchType = typename ChunkReader::BatchType;
  using BatchRequestType = size_t;
  using ChunkSamplerType = ChunkSampler;
  using ExampleSamplerType = ExampleSampler;

  /// `preprocessing_policy`, if set, is applied to the examples of each read (all
  /// cross_chunk_shuffle_count chunks together) before the example sampler cuts them.
  ChunkDataset(ChunkReader chunk_reader, ChunkSampler chunk_sampler, ExampleSampler example_sampler,
               ChunkDatasetOptions options,
               std::function<void(UnwrappedBatchType&)> preprocessing_policy = {})
      : chunk_reader_(std::move(chunk_reader)),
        chunk_sampler_(std::move(chunk_sampler)),
        example_sampler_(std::move(example_sampler)),
        options_(std::move(options)),
        preprocessing_policy_(std::move(preprocessing_policy)) {
    options_.validate();
  }
  ChunkDataset(const ChunkDataset&) = delete;
  ChunkDataset& operator=(const ChunkDataset&) = delete;
  ~ChunkDataset() override { stop_preloaders(); }

  /// The next batch (waiting for the preloaders), nullopt at the end of the epoch. Throws
  /// brasa::RuntimeError before the first reset() and brasa::ValueError when batch_size is not
  /// options().batch_size(). Safe to call from several threads.
  BatchType get_batch(size_t batch_size) override {
    BRASA_CHECK_TYPED(RuntimeError, buffer_ != nullptr,
                      "ChunkDataset: Dataset needs to call reset() before calling get_batch().");
    BRASA_CHECK(batch_size == options_.batch_size(),
                "ChunkDataset: The requested batch size does not match with the initialized "
                "batch size.\n The requested batch size is ",
                batch_size, ", while the dataset is created with batch size equal to ",
                options_.batch_size());
    return buffer_->get_batch();
  }
  BatchType get_batch() { return get_batch(options_.batch_size()); }

  /// Starts an epoch: stops and joins the previous preloaders, resets the reader and (unless a
  /// load() came first) the chunk sampler, drops buffered batches, starts the preloaders.
  void reset() override {
    stop_preloaders();
    chunk_reader_.reset();
    {
      std::lock_guard<std::mutex> lock(chunk_sampler_mutex_);
      if (!resume_from_checkpoint_) chunk_sampler_.reset(chunk_reader_.chunk_count());
      resume_from_checkpoint_ = false;
    }
    buffer_ = std::make_shared<Buffer>(options_.batch_size(), example_sampler_,
                                       options_.cache_size(), options_.preloader_count());
    stopping_ = false;
    for (size_t i = 0; i < options_.preloader_count(); ++i) {
      preloaders_.emplace_back([this, buffer = buffer_] { preload(*buffer); });
    }
  }

  /// Unsized: the epoch ends when the chunks do.
  std::optional<size_t> size() const override { return std::nullopt; }

  /// The chunk sampler (e.g. to set a distributed sampler's epoch before begin()).
  ChunkSamplerType& chunk_sampler() { return chunk_sampler_; }
  const ChunkDatasetOptions& options() const noexcept { return options_; }

  void save(serialize::OutputArchive& archive) const override {
    std::lock_guard<std::mutex> lock(chunk_sampler_mutex_);
    chunk_sampler_.save(archive);
  }
  void load(serialize::InputArchive& archive) override {
    std::lock_guard<std::mutex> lock(chunk_sampler_mutex_);
    chunk_sampler_.load(archive);
    resume_from_checkpoint_ = true;
  }

 private:
  using Buffer = detail::ChunkBatchBuffer<UnwrappedBatchType, ExampleSampler>;

  // One preloader thread: takes the next chunk indices, reads them, hands the examples (or the
  // error) to the buffer, until the chunk sampler is exhausted or the epoch is stopped.
  void preload(Buffer& buffer) {
    while (!stopping_.load()) {
      // Errors are handed over after their catch block: the thread has let go of the exception
      // by then, so the consumer holds the last reference.
      std::exception_ptr error;
      std::vector<size_t> chunks;
      try {
        std::lock_guard<std::mutex> lock(chunk_sampler_mutex_);
        auto next = chunk_sampler_.next(options_.cross_chunk_shuffle_count());
        if (!next || next->size() == 0) break;
        chunks.assign(next->begin(), next->end());
      } catch (...) {
        error = std::current_exception();
      }
      if (error) {  // a failing chunk sampler would fail again: report it and stop
        buffer.add_error(std::move(error));
        break;
      }
      try {
        UnwrappedBatchType data = chunk_reader_.read_chunk(chunks[0]);
        for (size_t i = 1; i < chunks.size(); ++i) {
          auto more = chunk_reader_.read_chunk(chunks[i]);
          std::move(more.begin(), more.end(), std::back_inserter(data));
        }
        if (preprocessing_policy_) preprocessing_policy_(data);
        if (!data.empty()) buffer.add_chunk(std::move(data));
      } catch (...) {
        error = std::current_exception();
      }
      if (error) buffer.add_error(std::move(error));
    }
    buffer.writer_done();
  }

  void stop_preloaders() {
    stopping_ = true;
    if (buffer_) buffer_->close();
    for (auto& thread : preloaders_) thread.join();
    preloaders_.clear();
  }

  ChunkReader chunk_reader_;
  ChunkSamplerType chunk_sampler_;      // guarded by chunk_sampler_mutex_
  ExampleSamplerType example_sampler_;  // used by the buffer, under its lock
  const ChunkDatasetOptions options_;
  std::function<void(UnwrappedBatchType&)> preprocessing_policy_;

  std::shared_ptr<Buffer> buffer_;  // this epoch's; null before the first reset()
  std::vector<std::thread> preloaders_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex chunk_sampler_mutex_;
  bool resume_from_checkpoint_ = false;  // guarded by chunk_sampler_mutex_
};

}  // namespace brasa::data::datasets
