// The Fashion-MNIST job's two models (examples/fashion_mnist/models.h: the CNN, conv 32 -> pool ->
// conv 64 -> pool -> fc 128 -> fc 10, and the 784-512-512-10 MLP) eager and through brasa::compile:
// a training step (forward, cross-entropy, backward, AdamW) at batch 64, compiled loss against
// eager, best of interleaved rounds. docs/benchmarks.md, "Compile: conv epilogues". Usage:
// compile_mnist_bench [threads] [rounds]; BENCH_PROFILE=N prints where N compiled steps go.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "best_of.h"
#include "brasa/compile.h"
#include "brasa/profiler/profiler.h"
#include "fashion_mnist/models.h"
#include "train_step.h"

namespace F = torch::nn::functional;

template <typename Model>
void run(const char* name, Model& model, int rounds) {
  model->train();
  const torch::Tensor x = torch::randn({64, 1, 28, 28});
  const torch::Tensor y = torch::randint(0, 10, {64});
  auto loss_fn = [&model](const torch::Tensor& in, const torch::Tensor& target) {
    return F::cross_entropy(model->forward(in), target);
  };
  auto compiled_loss = brasa::compile(loss_fn);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-4));
  auto step = bench::training_step(optimizer, loss_fn, compiled_loss, x, y);
  const double eager_loss = loss_fn(x, y).template item<double>();
  const double compiled_value = compiled_loss(x, y).template item<double>();
  step(true), step(false);
  double eager_ms = 1e300, compiled_ms = 1e300;
  for (int r = 0; r < rounds; ++r) {
    eager_ms = std::min(eager_ms, bench::best_ms([&] { step(false); }, 3));
    compiled_ms = std::min(compiled_ms, bench::best_ms([&] { step(true); }, 3));
  }
  if (const char* profile = std::getenv("BENCH_PROFILE")) {
    for (bool compiled : {false, true}) {
      brasa::profiler::Profiler p;
      p.start();
      for (int i = 0; i < std::max(1, std::atoi(profile)); ++i) step(compiled);
      p.stop();
      std::printf("%s %s step:\n%s\n", name, compiled ? "compiled" : "eager",
                  p.table(brasa::profiler::SortBy::SelfCpuTimeTotal, 16).c_str());
    }
  }
  std::printf(
      "%s training step (batch 64, AdamW): eager %.3f ms, compiled %.3f ms, compiled/eager %.2f "
      "(loss eager %.6f, compiled %.6f)\n",
      name, eager_ms, compiled_ms, compiled_ms / eager_ms, eager_loss, compiled_value);
}

int main(int argc, char** argv) {
  if (argc > 1) torch::set_num_threads(std::atoi(argv[1]));
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  torch::manual_seed(0);
  Cnn cnn;
  run("CNN", cnn, rounds);
  Mlp mlp;
  run("MLP", mlp, rounds);
  return 0;
}
