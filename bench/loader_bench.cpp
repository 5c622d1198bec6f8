// Samples/s of Fashion-MNIST through the data loader (Normalize + Stack, batch 64, RandomSampler).
//   loader_bench [root] [workers] [epochs]

#include <chrono>
#include <cstdio>
#include <string>

#include "brasa/brasa.h"

namespace {

using namespace brasa::data;

// The per-example path: MNIST's get() without its get_batch fast path.
struct RowByRow : datasets::Dataset<RowByRow> {
  explicit RowByRow(datasets::MNIST mnist) : mnist(std::move(mnist)) {}
  Example<> get(size_t i) override { return mnist.get(i); }
  std::optional<size_t> size() const override { return mnist.size(); }
  datasets::MNIST mnist;
};

template <typename Dataset>
double samples_per_second(Dataset dataset, size_t workers, int epochs) {
  auto loader = make_data_loader(
      std::move(dataset).map(transforms::Normalize<>(0.2860, 0.3530)).map(transforms::Stack<>()),
      DataLoaderOptions().batch_size(64).workers(workers).drop_last(true));
  int64_t samples = 0;
  double checksum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int e = 0; e < epochs; ++e) {
    for (auto& batch : *loader) {
      samples += batch.data.size(0);
      checksum += static_cast<double>(batch.target[0].template item<int64_t>());
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  (%lld samples in %.3f s, checksum %.0f)\n", static_cast<long long>(samples),
              seconds, checksum);
  return static_cast<double>(samples) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist";
  const size_t workers = argc > 2 ? std::stoul(argv[2]) : 2;
  const int epochs = argc > 3 ? std::stoi(argv[3]) : 2;
  try {
    const auto start = std::chrono::steady_clock::now();
    datasets::MNIST mnist(root);
    std::printf("load %s: %zu examples in %.3f s\n", root.c_str(), *mnist.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::printf("loader_fashion_mnist (batch 64, %zu workers, Normalize+Stack): %.0f samples/s\n",
                workers, samples_per_second(mnist, workers, epochs));
    std::printf("loader_fashion_mnist_row_by_row (no batch fast path): %.0f samples/s\n",
                samples_per_second(RowByRow(mnist), workers, epochs));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loader_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
