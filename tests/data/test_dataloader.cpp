// DataLoader: batching, ordering, drop_last, workers, timeouts, exceptions and early destruction.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "brasa/brasa.h"

namespace brasa::data {
namespace {

// Example i: data = [i] (float), target = i; optional delay (reversed: late indices are fast) and
// an index that throws.
struct Numbers : datasets::Dataset<Numbers> {
  explicit Numbers(size_t n, int delay_ms = 0, size_t throw_at = SIZE_MAX)
      : n(n), delay_ms(delay_ms), throw_at(throw_at) {}
  Example<> get(size_t i) override {
    if (i == throw_at) {
      throw std::runtime_error("bad example " + std::to_string(i));
    }
    if (delay_ms > 0) {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(delay_ms * static_cast<int>(n - i) / static_cast<int>(n)));
    }
    return {full({1}, static_cast<double>(i)), scalar_tensor(static_cast<int64_t>(i))};
  }
  std::optional<size_t> size() const override { return n; }
  size_t n;
  int delay_ms;
  size_t throw_at;
};

std::vector<int64_t> targets_of(const std::vector<Example<>>& batch) {
  std::vector<int64_t> v;
  for (const auto& e : batch) v.push_back(e.target.item<int64_t>());
  return v;
}

TEST(DataLoader, SequentialBatchesWithAndWithoutWorkers) {
  for (size_t workers : {0, 1, 3}) {
    auto loader = make_data_loader<samplers::SequentialSampler>(
        Numbers(10), DataLoaderOptions().batch_size(4).workers(workers));
    std::vector<std::vector<int64_t>> got;
    for (auto& batch : *loader) got.push_back(targets_of(batch));
    EXPECT_EQ(got, (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}))
        << workers << " workers";
    size_t epochs_batches = 0;
    for (auto it = loader->begin(); it != loader->end(); ++it) ++epochs_batches;
    EXPECT_EQ(epochs_batches, 3u);  // a second epoch
  }
}

TEST(DataLoader, DropLastAndStack) {
  auto loader = make_data_loader<samplers::SequentialSampler>(
      Numbers(10).map(transforms::Stack<>()), DataLoaderOptions(4).drop_last(true).workers(2));
  std::vector<int64_t> firsts;
  for (auto& batch : *loader) {
    EXPECT_EQ(batch.data.sizes(), (std::vector<int64_t>{4, 1}));
    firsts.push_back(batch.target[0].item<int64_t>());
  }
  EXPECT_EQ(firsts, (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(loader->options().batch_size, 4u);
  EXPECT_EQ(loader->options().max_jobs, 4u);
}

TEST(DataLoader, EnforcedOrderingDespiteSlowEarlyBatches) {
  auto loader = make_data_loader<samplers::SequentialSampler>(
      Numbers(32, 20), DataLoaderOptions(2).workers(4).enforce_ordering(true));
  int64_t expected = 0;
  for (auto& batch : *loader) {
    for (int64_t t : targets_of(batch)) EXPECT_EQ(t, expected++);
  }
  EXPECT_EQ(expected, 32);
}

TEST(DataLoader, UnorderedDeliversEverything) {
  auto loader =
      make_data_loader(Numbers(40, 5), DataLoaderOptions(3).workers(3).enforce_ordering(false));
  std::vector<int64_t> all;
  for (auto& batch : *loader) {
    auto t = targets_of(batch);
    all.insert(all.end(), t.begin(), t.end());
  }
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), 40u);
  for (int64_t i = 0; i < 40; ++i) EXPECT_EQ(all[i], i);
}

TEST(DataLoader, WorkerExceptionPropagates) {
  for (size_t workers : {0, 2}) {
    auto loader = make_data_loader<samplers::SequentialSampler>(
        Numbers(12, 0, 5), DataLoaderOptions(4).workers(workers));
    auto it = loader->begin();
    EXPECT_EQ(targets_of(*it).front(), 0);
    if (workers == 0) {
      EXPECT_THROW(++it, std::runtime_error);
      continue;
    }
    try {
      ++it;
      FAIL() << "no exception";
    } catch (const WorkerException& e) {
      EXPECT_NE(std::string(e.what()).find("bad example 5"), std::string::npos) << e.what();
      EXPECT_THROW(std::rethrow_exception(e.original_exception), std::runtime_error);
    }
  }
}

TEST(DataLoader, Timeout) {
  auto loader = make_data_loader<samplers::SequentialSampler>(
      Numbers(4, 400), DataLoaderOptions(1).workers(1).timeout(std::chrono::milliseconds(20)));
  try {
    (void)*loader->begin();  // begin() itself fetches nothing
    ADD_FAILURE() << "no exception";
  } catch (const Error& e) {
    // libtorch's RespectsTimeout looks for "Timeout" in the text.
    EXPECT_NE(std::string(e.what()).find("Timeout"), std::string::npos) << e.what();
  }
}

TEST(DataLoader, DestroyedMidEpochJoinsWorkers) {
  auto loader = make_data_loader(Numbers(1000, 2), DataLoaderOptions(8).workers(3));
  auto it = loader->begin();
  ++it;
  EXPECT_EQ((*it).size(), 8u);
  EXPECT_THROW(loader->begin(), Error);  // previous epoch still in flight
  const auto start = std::chrono::steady_clock::now();
  loader.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(DataLoader, StreamDataset) {
  struct Counter : datasets::StreamDataset<Counter> {
    std::vector<Example<>> get_batch(size_t n) override {
      return std::vector<Example<>>(n, Example<>(zeros({1}), zeros({})));
    }
    std::optional<size_t> size() const override { return std::nullopt; }
  };
  auto loader = make_data_loader(Counter(), samplers::StreamSampler(10), DataLoaderOptions(4));
  std::vector<size_t> sizes;
  for (auto& batch : *loader) sizes.push_back(batch.size());
  EXPECT_EQ(sizes, (std::vector<size_t>{4, 4, 2}));
}

}  // namespace
}  // namespace brasa::data
