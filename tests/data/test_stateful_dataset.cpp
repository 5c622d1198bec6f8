// StatefulDataset and StatefulDataLoader, SharedBatchDataset, the sequencers and the worker queues.

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "brasa/brasa.h"

namespace brasa::data {
namespace {

// Hands out 0, 1, ..., limit-1 (one int per batch), then nullopt; counts its resets. Locked, so
// the loader's workers may share it.
struct Counter : datasets::StatefulDataset<Counter, int, size_t> {
  explicit Counter(int limit = 10) : limit(limit) {}
  std::optional<int> get_batch(size_t batch_size) override {
    std::lock_guard<std::mutex> lock(*mutex);
    requested_size = batch_size;
    if (next < limit) return next++;
    return std::nullopt;
  }
  std::optional<size_t> size() const override { return 100; }
  void reset() override {
    std::lock_guard<std::mutex> lock(*mutex);
    next = 0;
    ++resets;
  }
  void save(serialize::OutputArchive& archive) const override {
    archive.write("next", IValue(static_cast<int64_t>(next)));
  }
  void load(serialize::InputArchive& archive) override {
    IValue value;
    archive.read("next", value);
    next = static_cast<int>(value.toInt());
  }
  int limit;
  int next = 0;
  int resets = 0;
  size_t requested_size = 0;
  std::unique_ptr<std::mutex> mutex = std::make_unique<std::mutex>();  // movable
};

static_assert(Counter::is_stateful);
static_assert(std::is_same_v<Counter::BatchType, std::optional<int>>);
static_assert(!datasets::TensorDataset::is_stateful);
static_assert(datasets::SharedBatchDataset<Counter>::is_stateful);
static_assert(!datasets::SharedBatchDataset<datasets::TensorDataset>::is_stateful);

TEST(StatefulDataLoader, NoWorkersRunsUntilNulloptAndResetsEachEpoch) {
  auto shared = datasets::make_shared_dataset<Counter>(10);
  auto loader = make_data_loader(shared, DataLoaderOptions(3));
  static_assert(
      std::is_same_v<decltype(loader),
                     std::unique_ptr<StatefulDataLoader<datasets::SharedBatchDataset<Counter>>>>);
  for (int epoch = 0; epoch < 5; ++epoch) {
    std::vector<int> got;
    for (int value : *loader) got.push_back(value);
    EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  }
  EXPECT_EQ(shared->resets, 5);
  EXPECT_EQ(shared->requested_size, 3u);  // every request is the batch size
  EXPECT_EQ(loader->options().batch_size, 3u);
}

TEST(StatefulDataLoader, ManyWorkersShareTheDataset) {
  for (bool ordered : {true, false}) {
    auto shared = datasets::make_shared_dataset<Counter>(10);
    auto loader =
        make_data_loader(shared, DataLoaderOptions().workers(4).enforce_ordering(ordered));
    for (int epoch = 0; epoch < 10; ++epoch) {
      EXPECT_EQ(std::distance(loader->begin(), loader->end()), 10) << "epoch " << epoch;
    }
    std::vector<int> got;
    for (int value : *loader) got.push_back(value);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(shared->resets, 11);
  }
}

TEST(StatefulDataLoader, MapKeepsBatchesOptional) {
  auto mapped =
      Counter(4)
          .map(transforms::BatchLambda<int, std::string>([](int x) { return std::to_string(x); }))
          .map(transforms::BatchLambda<std::string, Tensor>(
              [](const std::string& x) { return scalar_tensor(std::stoll(x)); }));
  static_assert(decltype(mapped)::is_stateful);
  static_assert(std::is_same_v<decltype(mapped)::BatchType, std::optional<Tensor>>);
  auto loader = make_data_loader(std::move(mapped), DataLoaderOptions());
  for (int epoch = 0; epoch < 3; ++epoch) {
    int64_t expected = 0;
    for (const Tensor& t : *loader) EXPECT_EQ(t.item<int64_t>(), expected++);
    EXPECT_EQ(expected, 4);
  }
}

// Batches of examples collated by Stack, as libtorch's StatefulDatasetWithCollate (locked: the
// loader's workers share it).
struct Examples : datasets::StatefulDataset<Examples> {
  std::optional<std::vector<Example<>>> get_batch(size_t batch_size) override {
    std::lock_guard<std::mutex> lock(*mutex);
    if (served >= 10) return std::nullopt;
    served += batch_size;
    return std::vector<Example<>>(batch_size, Example<>{ones({3}), zeros({2})});
  }
  std::optional<size_t> size() const override { return std::nullopt; }
  void reset() override { served = 0; }
  void save(serialize::OutputArchive&) const override {}
  void load(serialize::InputArchive&) override {}
  size_t served = 0;
  std::unique_ptr<std::mutex> mutex = std::make_unique<std::mutex>();
};

TEST(StatefulDataLoader, StackCollatesStatefulBatches) {
  auto stacked = Examples().map(transforms::Stack<Example<>>());
  std::optional<Example<>> batch = stacked.get_batch(5);
  ASSERT_TRUE(batch.has_value());
  EXPECT_EQ(batch->data.sizes(), IntArrayRef({5, 3}));
  EXPECT_EQ(batch->target.sizes(), IntArrayRef({5, 2}));
  auto loader = make_data_loader(Examples().map(transforms::Stack<Example<>>()),
                                 DataLoaderOptions(4).workers(2));
  int64_t rows = 0;
  for (auto& b : *loader) rows += b.data.size(0);
  EXPECT_EQ(rows, 12);  // 4 + 4 + 4: the dataset stops once it has served 10 or more
}

struct Failing : datasets::StatefulDataset<Failing, int> {
  std::optional<int> get_batch(size_t) override { throw std::invalid_argument("badness"); }
  std::optional<size_t> size() const override { return std::nullopt; }
  void reset() override {}
  void save(serialize::OutputArchive&) const override {}
  void load(serialize::InputArchive&) override {}
};

TEST(StatefulDataLoader, ExceptionsReachTheConsumer) {
  auto with_workers = make_data_loader(Failing(), DataLoaderOptions().workers(2));
  try {
    (void)*with_workers->begin();
    ADD_FAILURE() << "no error";
  } catch (const WorkerException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Caught exception in DataLoader worker thread. Original message: badness");
    EXPECT_THROW(std::rethrow_exception(e.original_exception), std::invalid_argument);
  }
  auto main_thread = make_data_loader(Failing(), DataLoaderOptions());
  EXPECT_THROW((void)*main_thread->begin(), std::invalid_argument);
}

TEST(StatefulDataLoader, BeginWhileRequestsAreInFlightThrows) {
  auto loader =
      make_data_loader(datasets::make_shared_dataset<Counter>(100), DataLoaderOptions().workers(2));
  auto it = loader->begin();
  EXPECT_EQ(*it, 0);
  EXPECT_THROW(loader->begin(), Error);
  EXPECT_THROW(make_data_loader(Counter(), DataLoaderOptions(0)), Error);
}

TEST(StatefulDataset, ArchiveOperatorsUseSaveAndLoad) {
  Counter a;
  a.reset();
  for (int i = 0; i < 3; ++i) (void)a.get_batch(1);
  std::stringstream stream;
  brasa::save(a, stream);
  Counter b;
  brasa::load(b, stream);
  EXPECT_EQ(b.get_batch(1), std::optional<int>(3));
}

struct Uncopyable : datasets::Dataset<Uncopyable, int> {
  explicit Uncopyable(const std::string&) {}
  Uncopyable(Uncopyable&&) = default;
  Uncopyable(const Uncopyable&) = delete;
  int get(size_t index) override { return static_cast<int>(index) + 1; }
  std::optional<size_t> size() const override { return 100; }
};

TEST(SharedBatchDataset, WorkersUseTheOneDataset) {
  auto shared = datasets::make_shared_dataset<Uncopyable>("uncopyable");
  EXPECT_EQ(shared.size(), std::optional<size_t>(100));
  EXPECT_EQ((*shared).get(4), 5);
  EXPECT_EQ(shared->get(5), 6);
  EXPECT_EQ(shared.get_batch({1, 2}), (std::vector<int>{2, 3}));
  auto loader =
      make_data_loader<samplers::SequentialSampler>(shared, DataLoaderOptions(10).workers(3));
  int sum = 0;
  for (auto& batch : *loader) {
    for (int v : batch) sum += v;
  }
  EXPECT_EQ(sum, 5050);
  auto from_object = datasets::make_shared_dataset<Uncopyable>(Uncopyable("moved"));
  EXPECT_EQ(from_object.size().value(), 100u);
  EXPECT_THROW(datasets::SharedBatchDataset<Uncopyable>(nullptr), ValueError);
}

TEST(Sequencers, NoSequencerPassesResultsOn) {
  detail::sequencers::NoSequencer<int> sequencer;
  EXPECT_EQ(sequencer.next([] { return 5; }).value(), 5);
}

TEST(Sequencers, OrderedSequencerRestoresTheOrder) {
  struct S {
    size_t sequence_number;
  };
  detail::sequencers::OrderedSequencer<S> sequencer(5);
  EXPECT_EQ(sequencer.next_sequence_number_, 0u);
  EXPECT_EQ(sequencer.buffer_.size(), 5u);
  const std::vector<size_t> arrivals = {0, 2, 4, 3, 1};
  size_t produced = 0;
  auto producer = [&]() -> std::optional<S> {
    if (produced == arrivals.size()) return std::nullopt;
    return S{arrivals[produced++]};
  };
  EXPECT_EQ(sequencer.next(producer)->sequence_number, 0u);
  EXPECT_EQ(produced, 1u);  // in order: returned at once
  EXPECT_EQ(sequencer.next(producer)->sequence_number, 1u);
  EXPECT_EQ(produced, 5u);  // 2, 4 and 3 were kept until 1 came
  for (size_t i = 2; i <= 4; ++i) EXPECT_EQ(sequencer.next(producer)->sequence_number, i);
  EXPECT_EQ(produced, 5u);
  EXPECT_FALSE(sequencer.next(producer).has_value());
  EXPECT_THROW(detail::sequencers::OrderedSequencer<S>(0), ValueError);
}

TEST(WorkerQueues, QueueAndShuttle) {
  detail::Queue<int> queue;
  queue.push(1);
  queue.push(2);
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_EQ(queue.clear(), 1u);
  try {
    queue.pop(std::chrono::milliseconds(1));
    ADD_FAILURE() << "no timeout";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("Timeout in DataLoader queue while waiting for next "
                                         "batch (timeout was 1 ms)"),
              std::string::npos);
  }
  detail::DataShuttle<int, int> shuttle;
  EXPECT_FALSE(shuttle.pop_result().has_value());  // nothing in flight: no wait
  shuttle.push_job(7);
  std::thread worker([&] { shuttle.push_result(shuttle.pop_job() * 2); });
  EXPECT_EQ(shuttle.pop_result().value(), 14);
  worker.join();
  shuttle.push_job(1);
  shuttle.push_job(2);
  EXPECT_EQ(shuttle.in_flight_jobs(), 2u);
  shuttle.drain();  // nobody took them: they are forgotten
  EXPECT_EQ(shuttle.in_flight_jobs(), 0u);
}

}  // namespace
}  // namespace brasa::data
