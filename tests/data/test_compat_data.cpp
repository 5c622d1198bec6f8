// libtorch-style torch::data code compiles and runs against brasa.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "support/idx_fixture.h"

namespace {

TEST(DataCompat, MnistNormalizeStackLoader) {
  brasa::testing::TempDir tmp;
  tmp.write_mnist(150, /*gz=*/true);
  const std::string dir = tmp.str();

  auto ds = torch::data::datasets::MNIST(dir)
                .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(ds), torch::data::DataLoaderOptions().batch_size(64).workers(2));
  int64_t seen = 0;
  for (auto& b : *loader) {
    torch::Tensor data = b.data;
    torch::Tensor target = b.target;
    EXPECT_EQ(data.dim(), 4);
    EXPECT_EQ(data.size(0), target.size(0));
    EXPECT_EQ(target.scalar_type(), torch::kLong);
    seen += data.size(0);
  }
  EXPECT_EQ(seen, 150);

  auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      torch::data::datasets::MNIST(dir, torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(32));
  int64_t first = 0;  // sequential: example i has label i % 10 and pixel 0 = (7 i % 256) / 255
  for (auto& b : *test_loader) {
    EXPECT_EQ(b.target[0].item<int64_t>(), first % 10);
    EXPECT_NEAR(b.data[1][0][0][0].item<float>(), ((first + 1) * 7 % 256) / 255.0f, 1e-6);
    first += b.data.size(0);
  }
  EXPECT_EQ(first, 75);
}

// libtorch's DataLoaderTest.TestExceptionsArePropagatedFromWorkers: begin() hands out the
// iterator without running the dataset; dereferencing it rethrows the worker's exception as a
// WorkerException whose text is libtorch's and whose original_exception keeps the type.
TEST(DataCompat, WorkerExceptionsPropagateOnDereference) {
  struct D : torch::data::datasets::Dataset<D, int> {
    int get(size_t) override { throw std::invalid_argument("badness"); }
    torch::optional<size_t> size() const override { return 100; }
  };
  auto data_loader = torch::data::make_data_loader(D{}, torch::data::samplers::RandomSampler(100),
                                                   torch::data::DataLoaderOptions().workers(2));
  auto iterator = data_loader->begin();
  try {
    (void)*iterator;
    ADD_FAILURE() << "no exception";
  } catch (torch::data::WorkerException& e) {
    EXPECT_EQ(
        e.what(),
        std::string("Caught exception in DataLoader worker thread. Original message: badness"));
    EXPECT_THROW(std::rethrow_exception(e.original_exception), std::invalid_argument);
  }
  // Without workers the dataset's own exception comes through unchanged.
  auto main_thread = torch::data::make_data_loader(D{}, torch::data::samplers::RandomSampler(100),
                                                   torch::data::DataLoaderOptions());
  auto it = main_thread->begin();
  EXPECT_THROW((void)*it, std::invalid_argument);
}

}  // namespace
