// A libtorch-style program over torch::data's chunk and stateful datasets, written as it would be
// against libtorch 1.13's headers, builds and runs unchanged.

#include <c10/util/irange.h>
#include <gtest/gtest.h>
#include <torch/data/datasets/chunk.h>
#include <torch/data/detail/sequencers.h>
#include <torch/torch.h>

#include <mutex>
#include <numeric>
#include <sstream>

namespace {

using namespace torch::data;  // NOLINT

// 3 chunks of 10, 5 and 20 examples: 35 consecutive ints in all.
struct DummyChunkDataReader : public datasets::ChunkDataReader<int> {
 public:
  using BatchType = datasets::ChunkDataReader<int>::ChunkType;
  using DataType = datasets::ChunkDataReader<int>::ExampleType;

  BatchType read_chunk(size_t chunk_index) override {
    BatchType batch_data;
    int start_index =
        chunk_index == 0 ? 0 : std::accumulate(chunk_sizes, chunk_sizes + chunk_index, 0);
    batch_data.resize(chunk_sizes[chunk_index]);
    std::iota(batch_data.begin(), batch_data.end(), start_index);
    return batch_data;
  }
  size_t chunk_count() override { return chunk_count_; };
  void reset() override{};

  const static size_t chunk_count_ = 3;
  size_t chunk_sizes[chunk_count_] = {10, 5, 20};
};

using SharedChunks = datasets::SharedBatchDataset<datasets::ChunkDataset<
    DummyChunkDataReader, samplers::SequentialSampler, samplers::SequentialSampler>>;

TEST(DataCompat, ChunkDatasetProgram) {
  DummyChunkDataReader data_reader;
  samplers::SequentialSampler sampler(0);
  for (size_t workers : {0, 2}) {
    SharedChunks dataset = datasets::make_shared_dataset<datasets::ChunkDataset<
        DummyChunkDataReader, samplers::SequentialSampler, samplers::SequentialSampler>>(
        data_reader, sampler, sampler, datasets::ChunkDatasetOptions(2, 7));
    auto data_loader =
        torch::data::make_data_loader(dataset, DataLoaderOptions(7).workers(workers));
    for (const auto epoch : c10::irange(2)) {
      (void)epoch;
      std::vector<bool> seen(35, false);
      for (auto iterator = data_loader->begin(); iterator != data_loader->end(); ++iterator) {
        DummyChunkDataReader::BatchType& batch = *iterator;
        ASSERT_EQ(batch.size(), 7u);
        for (int v : batch) seen[v] = true;
      }
      for (bool s : seen) ASSERT_TRUE(s);
    }
  }

  // Checkpoint: the dataset saves its chunk sampler; a new dataset resumes from it.
  SharedChunks dataset = datasets::make_shared_dataset<datasets::ChunkDataset<
      DummyChunkDataReader, samplers::SequentialSampler, samplers::SequentialSampler>>(
      data_reader, sampler, sampler, datasets::ChunkDatasetOptions(1, 10, 20));
  sampler.reset(data_reader.chunk_count());
  sampler.next(2);
  std::stringstream stream;
  torch::save(sampler, stream);
  torch::load(*dataset, stream);
  auto data_loader = torch::data::make_data_loader(dataset, DataLoaderOptions(10));
  std::vector<int> first;
  for (auto& batch : *data_loader) first.insert(first.end(), batch.begin(), batch.end());
  std::vector<int> expected(20);
  std::iota(expected.begin(), expected.end(), 15);
  EXPECT_EQ(first, expected);

  EXPECT_THROW(datasets::ChunkDatasetOptions(1, 10, 5), c10::Error);
}

TEST(DataCompat, StatefulDatasetProgram) {
  struct D : datasets::StatefulDataset<D, int, size_t> {
    torch::optional<int> get_batch(size_t) override {
      std::lock_guard<std::mutex> lock(mutex);
      if (counter < 10) return counter++;
      return torch::nullopt;
    }
    torch::optional<size_t> size() const override { return 100; }
    void reset() override { counter = 0; }
    void save(torch::serialize::OutputArchive& archive) const override{};
    void load(torch::serialize::InputArchive& archive) override {}
    int counter = 0;
    std::mutex mutex;
  };
  auto data_loader = torch::data::make_data_loader(torch::data::datasets::make_shared_dataset<D>(),
                                                   DataLoaderOptions().workers(4));
  for (const auto i : c10::irange(3)) {
    EXPECT_EQ(std::distance(data_loader->begin(), data_loader->end()), 10) << "epoch " << i;
  }

  using namespace torch::data::detail::sequencers;  // NOLINT
  NoSequencer<int> no_sequencer;
  EXPECT_EQ(no_sequencer.next([] { return 5; }).value(), 5);
}

}  // namespace
