// ChunkDataset: preloaders, the batch buffer, both samplers, cross-chunk shuffle, save/load,
// resets between epochs and errors from the reader, alone and behind a StatefulDataLoader.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "brasa/brasa.h"

namespace brasa::data {
namespace {

using samplers::RandomSampler;
using samplers::SequentialSampler;

// Chunks of the given sizes holding consecutive integers: chunk 0 is 0..sizes[0]-1, and so on.
// Chunks listed in `failing` throw std::out_of_range instead (read-only: safe from any thread).
struct Reader : datasets::ChunkDataReader<int> {
  explicit Reader(std::vector<size_t> sizes, std::vector<size_t> failing = {})
      : sizes(std::move(sizes)), failing(std::move(failing)) {}
  std::vector<int> read_chunk(size_t chunk) override {
    if (std::find(failing.begin(), failing.end(), chunk) != failing.end()) {
      throw std::out_of_range("chunk " + std::to_string(chunk) + " is unreadable");
    }
    const size_t start = std::accumulate(sizes.begin(), sizes.begin() + chunk, size_t(0));
    std::vector<int> values(sizes.at(chunk));
    std::iota(values.begin(), values.end(), static_cast<int>(start));
    return values;
  }
  size_t chunk_count() override { return sizes.size(); }
  void reset() override {}
  std::vector<size_t> sizes;
  std::vector<size_t> failing;
};

template <typename ChunkSampler = SequentialSampler, typename ExampleSampler = SequentialSampler>
using Chunks = datasets::ChunkDataset<Reader, ChunkSampler, ExampleSampler>;

template <typename ChunkSampler = SequentialSampler, typename ExampleSampler = SequentialSampler>
datasets::SharedBatchDataset<Chunks<ChunkSampler, ExampleSampler>> shared_chunks(
    Reader reader, datasets::ChunkDatasetOptions options) {
  return datasets::make_shared_dataset<Chunks<ChunkSampler, ExampleSampler>>(
      std::move(reader), ChunkSampler(0), ExampleSampler(0), options);
}

// Runs one epoch of `loader` and returns its batches.
template <typename Loader>
std::vector<std::vector<int>> epoch(Loader& loader) {
  std::vector<std::vector<int>> batches;
  for (auto& batch : loader) batches.push_back(batch);
  return batches;
}

std::vector<int> sorted_examples(const std::vector<std::vector<int>>& batches) {
  std::vector<int> all;
  for (const auto& b : batches) all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  return all;
}

std::vector<int> iota(int begin, int end) {
  std::vector<int> v(static_cast<size_t>(end - begin));
  std::iota(v.begin(), v.end(), begin);
  return v;
}

TEST(ChunkDataset, OptionsRejectBadValues) {
  using datasets::ChunkDatasetOptions;
  auto message = [](auto make) -> std::string {
    try {
      make();
    } catch (const ValueError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message([] { ChunkDatasetOptions(0, 1, 1); }).find("Preloader count is 0"),
            std::string::npos);
  EXPECT_NE(message([] { ChunkDatasetOptions(1, 0, 1); }).find("Batch size is 0"),
            std::string::npos);
  EXPECT_NE(message([] { ChunkDatasetOptions(1, 1, 0); }).find("Cache size is 0"),
            std::string::npos);
  EXPECT_NE(message([] { ChunkDatasetOptions(1, 10, 5); })
                .find("Cache size is less than batch size. Cache needs to be large enough to "
                      "hold at least one batch."),
            std::string::npos);
  EXPECT_NE(message([] {
              ChunkDatasetOptions(1, 10, 20, 0);
            }).find("cross_chunk_shuffle_count needs to be greater than 0."),
            std::string::npos);
  // The setters do not check, the dataset does.
  auto bad = ChunkDatasetOptions(1, 4).batch_size(4096);
  EXPECT_THROW(Chunks<>(Reader({4}), SequentialSampler(0), SequentialSampler(0), bad), ValueError);
}

TEST(ChunkDataset, GetBatchBeforeResetOrWithAnotherSizeThrows) {
  Chunks<> dataset(Reader({10, 5, 20}), SequentialSampler(0), SequentialSampler(0),
                   datasets::ChunkDatasetOptions(1, 5));
  EXPECT_THROW(dataset.get_batch(5), RuntimeError);
  dataset.reset();
  try {
    dataset.get_batch(6);
    ADD_FAILURE() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "The requested batch size does not match with the initialized batch size.\n"
                  " The requested batch size is 6, while the dataset is created with batch size "
                  "equal to 5"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(dataset.get_batch().value(), iota(0, 5));
  EXPECT_FALSE(dataset.size().has_value());
}

// One preloader, sequential samplers, no loader workers: the order is fully determined, batches
// run across chunk boundaries (a short batch is topped up by the next chunk) and only the last
// batch of the epoch may be short.
TEST(ChunkDataset, SequentialOrderAcrossChunkBoundaries) {
  for (size_t batch_size : {5, 7, 8, 35, 40}) {
    auto dataset =
        shared_chunks(Reader({10, 5, 20}), {1, batch_size, std::max<size_t>(batch_size, 10)});
    auto loader = make_data_loader(dataset, DataLoaderOptions(batch_size));
    for (int e = 0; e < 2; ++e) {
      auto batches = epoch(*loader);
      ASSERT_EQ(batches.size(), (35 + batch_size - 1) / batch_size) << batch_size;
      int next = 0;
      for (const auto& batch : batches) {
        const int expected_size = std::min<int>(static_cast<int>(batch_size), 35 - next);
        EXPECT_EQ(batch, iota(next, next + expected_size)) << "batch_size " << batch_size;
        next += expected_size;
      }
    }
  }
}

// libtorch's ChunkDataSetGetBatchWithUnevenBatchSize: two chunks of 10.
TEST(ChunkDataset, BatchSizesThatDoNotDivide) {
  for (auto [batch_size, sizes] : std::vector<std::pair<size_t, std::vector<size_t>>>{
           {17, {17, 3}}, {30, {20}}, {3, {3, 3, 3, 3, 3, 3, 2}}}) {
    auto dataset = shared_chunks(Reader({10, 10}), {1, batch_size});
    auto loader = make_data_loader(dataset, DataLoaderOptions(batch_size));
    std::vector<size_t> got;
    for (auto& batch : *loader) got.push_back(batch.size());
    EXPECT_EQ(got, sizes) << batch_size;
  }
}

// Every example exactly once per epoch, for 1..4 preloaders, random or sequential samplers,
// loader workers or not, a cache that holds one batch or many.
TEST(ChunkDataset, EveryExampleOncePerEpoch) {
  const std::vector<size_t> sizes = {10, 5, 20, 1, 13};  // 49 examples
  for (size_t preloaders = 1; preloaders <= 4; ++preloaders) {
    for (size_t batch_size : {5, 7}) {
      for (size_t workers : {0, 2}) {
        for (size_t cache : {batch_size, size_t(2048)}) {
          SCOPED_TRACE(::testing::Message()
                       << "preloaders " << preloaders << " batch " << batch_size << " workers "
                       << workers << " cache " << cache);
          auto dataset = datasets::make_shared_dataset<Chunks<RandomSampler, RandomSampler>>(
              Reader(sizes), RandomSampler(0), RandomSampler(0),
              datasets::ChunkDatasetOptions(preloaders, batch_size, cache));
          auto loader = make_data_loader(dataset, DataLoaderOptions(batch_size).workers(workers));
          for (int e = 0; e < 2; ++e) {
            auto batches = epoch(*loader);
            EXPECT_EQ(sorted_examples(batches), iota(0, 49));
            size_t short_batches = 0;
            for (const auto& b : batches) {
              ASSERT_LE(b.size(), batch_size);
              short_batches += b.size() < batch_size;
            }
            EXPECT_EQ(short_batches, 49 % batch_size == 0 ? 0u : 1u);
            EXPECT_EQ(batches.size(), (49 + batch_size - 1) / batch_size);
          }
        }
      }
    }
  }
}

// Orders the examples of a read of `stride`-example chunks chunk-interleaved: 0, s, 2s, ...,
// 1, s+1, ... (so a read of several chunks mixes them).
struct InterleavingSampler : samplers::Sampler<> {
  explicit InterleavingSampler(size_t stride) : stride(stride) {}
  void reset(std::optional<size_t> new_size) override {
    if (new_size) size = *new_size;
    order.clear();
    for (size_t k = 0; k < stride; ++k) {
      for (size_t i = k; i < size; i += stride) order.push_back(i);
    }
    position = 0;
  }
  std::optional<std::vector<size_t>> next(size_t n) override {
    if (position == order.size()) return std::nullopt;
    n = std::min(n, order.size() - position);
    std::vector<size_t> batch(order.begin() + position, order.begin() + position + n);
    position += n;
    return batch;
  }
  size_t stride, size = 0, position = 0;
  std::vector<size_t> order;
};

TEST(ChunkDataset, CrossChunkShuffleMixesTheChunksOfARead) {
  const size_t chunk_size = 4;
  for (size_t chunk_count : {3, 4, 5}) {
    for (size_t cross : {1, 2, 3}) {
      auto dataset = datasets::make_shared_dataset<
          datasets::ChunkDataset<Reader, SequentialSampler, InterleavingSampler>>(
          Reader(std::vector<size_t>(chunk_count, chunk_size)), SequentialSampler(0),
          InterleavingSampler(chunk_size), datasets::ChunkDatasetOptions(1, 5, 10, cross));
      auto loader = make_data_loader(dataset, DataLoaderOptions(5));
      std::vector<int> got;
      for (auto& batch : *loader) got.insert(got.end(), batch.begin(), batch.end());
      std::vector<int> expected;  // group g reads chunks g*cross..; each example k of each chunk
      for (size_t first = 0; first < chunk_count; first += cross) {
        const size_t last = std::min(chunk_count, first + cross);
        for (size_t k = 0; k < chunk_size; ++k) {
          for (size_t c = first; c < last; ++c)
            expected.push_back(static_cast<int>(c * chunk_size + k));
        }
      }
      EXPECT_EQ(got, expected) << chunk_count << " chunks, cross " << cross;
    }
  }
}

TEST(ChunkDataset, PreprocessingPolicySeesEachRead) {
  auto reverse = [](std::vector<int>& data) { std::reverse(data.begin(), data.end()); };
  auto dataset = datasets::make_shared_dataset<Chunks<>>(
      Reader({3, 3, 2}), SequentialSampler(0), SequentialSampler(0),
      datasets::ChunkDatasetOptions(1, 4, 8, 2), reverse);
  auto loader = make_data_loader(dataset, DataLoaderOptions(4));
  std::vector<int> got;
  for (auto& batch : *loader) got.insert(got.end(), batch.begin(), batch.end());
  EXPECT_EQ(got, (std::vector<int>{5, 4, 3, 2, 1, 0, 7, 6}));
}

// libtorch's CanAccessChunkSamplerWithChunkDataSet: a map over the shared dataset, and the chunk
// sampler reached through it.
TEST(ChunkDataset, ChunkSamplerIsReachableAndMapApplies) {
  auto dataset = shared_chunks(Reader({10, 5, 20}), {2, 5});
  SequentialSampler& chunk_sampler = dataset->chunk_sampler();
  auto loader = make_data_loader(
      dataset.map(transforms::BatchLambda<std::vector<int>, int>(
          [](std::vector<int> batch) { return std::accumulate(batch.begin(), batch.end(), 0); })),
      DataLoaderOptions(5));
  EXPECT_EQ(chunk_sampler.index(), 0u);
  int sum = 0;
  for (int s : *loader) sum += s;
  EXPECT_EQ(sum, 595);
  EXPECT_EQ(chunk_sampler.index(), 3u);
}

TEST(ChunkDataset, ResetMidEpochStartsAfreshAndIdleDestructionDoesNotHang) {
  auto dataset = shared_chunks(Reader({10, 5, 20}), {2, 5, 5});
  auto loader = make_data_loader(dataset, DataLoaderOptions(5));
  auto it = loader->begin();
  EXPECT_EQ(it->size(), 5u);
  ++it;
  EXPECT_EQ(it->size(), 5u);
  EXPECT_EQ(sorted_examples(epoch(*loader)), iota(0, 35));  // begin() reset the dataset
  {
    auto idle = shared_chunks(Reader({10, 5, 20}), {3, 5, 5});
    auto idle_loader = make_data_loader(idle, DataLoaderOptions(5));
    (void)idle_loader->begin();  // preloaders fill the cache and wait; destruction stops them
  }
}

// Saving the dataset writes the chunk sampler: with a cache of one chunk the preloader is at most
// two chunks ahead of the batch just served (libtorch's ChunkDatasetSave window).
TEST(ChunkDataset, SaveWritesTheChunkSamplerState) {
  auto dataset = shared_chunks(Reader(std::vector<size_t>(6, 10)), {1, 10, 10});
  auto loader = make_data_loader(dataset, DataLoaderOptions(10));
  for (int e = 0; e < 2; ++e) {
    size_t iteration = 0;
    for (auto it = loader->begin(); it != loader->end(); ++it, ++iteration) {
      std::stringstream stream;
      brasa::save(*dataset, stream);
      SequentialSampler saved(0);
      brasa::load(saved, stream);
      EXPECT_GE(saved.index(), iteration + 1);
      EXPECT_LE(saved.index(), iteration + 3);
    }
    EXPECT_EQ(iteration, 6u);
  }
}

// Loading a sampler state makes the next epoch continue there; the one after starts afresh.
TEST(ChunkDataset, LoadContinuesTheSavedEpochOnce) {
  Reader reader({10, 5, 20});
  SequentialSampler sampler(0);
  sampler.reset(reader.chunk_count());
  sampler.next(2);  // chunks 0 and 1 done
  std::stringstream stream;
  brasa::save(sampler, stream);

  auto dataset = shared_chunks(reader, {1, 10, 20});
  brasa::load(*dataset, stream);
  auto loader = make_data_loader(dataset, DataLoaderOptions(10));
  EXPECT_EQ(epoch(*loader), (std::vector<std::vector<int>>{iota(15, 25), iota(25, 35)}));
  EXPECT_EQ(epoch(*loader),
            (std::vector<std::vector<int>>{iota(0, 10), iota(10, 20), iota(20, 30), iota(30, 35)}));
}

// A chunk that cannot be read reaches the consumer as WorkerException (libtorch's text, the
// reader's exception inside); the other chunks are still served, each example once.
TEST(ChunkDataset, ReaderErrorsReachTheConsumer) {
  for (size_t preloaders = 1; preloaders <= 3; ++preloaders) {
    Chunks<> dataset(Reader({10, 5, 20}, {1}), SequentialSampler(0), SequentialSampler(0),
                     datasets::ChunkDatasetOptions(preloaders, 4));
    for (int e = 0; e < 2; ++e) {
      dataset.reset();
      std::vector<std::vector<int>> batches;
      int errors = 0;
      while (true) {
        try {
          auto batch = dataset.get_batch();
          if (!batch) break;
          batches.push_back(*batch);
        } catch (const WorkerException& error) {
          ++errors;
          EXPECT_EQ(std::string(error.what()),
                    "Caught exception in DataLoader worker thread. Original message: chunk 1 is "
                    "unreadable");
          EXPECT_THROW(std::rethrow_exception(error.original_exception), std::out_of_range);
        }
      }
      EXPECT_EQ(errors, 1);
      std::vector<int> expected = iota(0, 10);
      for (int v : iota(15, 35)) expected.push_back(v);
      EXPECT_EQ(sorted_examples(batches), expected);
      size_t short_batches = 0;
      for (const auto& b : batches) short_batches += b.size() < 4;
      EXPECT_EQ(short_batches, 1u);  // 30 = 7 * 4 + 2: the error did not cut a batch short
    }
  }
}

TEST(ChunkDataset, ErrorsThroughTheLoader) {
  // No loader workers: the dataset's WorkerException comes through the iterator as it is.
  auto dataset = shared_chunks(Reader({4, 4}, {0}), {1, 4});
  auto loader = make_data_loader(dataset, DataLoaderOptions(4));
  auto it = loader->begin();
  EXPECT_THROW((void)*it, WorkerException);
  EXPECT_EQ(*it, iota(4, 8));  // the iterator retries and gets the next batch
  EXPECT_EQ(++it, loader->end());

  // With workers, a worker's exception is wrapped once more, as for every worker exception.
  auto loader2 = make_data_loader(dataset, DataLoaderOptions(4).workers(2));
  try {
    for (auto& batch : *loader2) EXPECT_EQ(batch, iota(4, 8));
    ADD_FAILURE() << "no error";
  } catch (const WorkerException& e) {
    EXPECT_NE(std::string(e.what()).find("chunk 0 is unreadable"), std::string::npos) << e.what();
    EXPECT_THROW(std::rethrow_exception(e.original_exception), WorkerException);
  }

  // A policy or example sampler that fails is reported the same way.
  auto failing_policy = datasets::make_shared_dataset<Chunks<>>(
      Reader({4}), SequentialSampler(0), SequentialSampler(0), datasets::ChunkDatasetOptions(1, 4),
      [](std::vector<int>&) { throw std::logic_error("policy failed"); });
  auto loader3 = make_data_loader(failing_policy, DataLoaderOptions(4));
  EXPECT_THROW((void)*loader3->begin(), WorkerException);
}

TEST(ChunkDataset, EmptyChunksAreSkipped) {
  auto dataset = shared_chunks(Reader({0, 3, 0}), {1, 2});
  auto loader = make_data_loader(dataset, DataLoaderOptions(2));
  EXPECT_EQ(epoch(*loader), (std::vector<std::vector<int>>{{0, 1}, {2}}));
  auto none = shared_chunks(Reader({0}), {1, 2});
  auto none_loader = make_data_loader(none, DataLoaderOptions(2));
  EXPECT_TRUE(epoch(*none_loader).empty());
}

}  // namespace
}  // namespace brasa::data
