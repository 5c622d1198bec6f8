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

}  // namespace
