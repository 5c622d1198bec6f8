// brasa's main job: trains a small CNN (or --model mlp) on Fashion-MNIST from Debian's
// dataset-fashion-mnist package, evaluates test accuracy after every epoch and saves a checkpoint.
// Written against libtorch's C++ API (<torch/torch.h>) only.
//
// Usage: fashion_mnist [--model cnn|mlp] [--epochs N] [--batch-size N] [--lr X] [--threads N]
//                      [--seed N] [--data-dir DIR] [--checkpoint PATH] [--log-every N]

#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "checkpoint.h"
#include "models.h"
#include "progress.h"

namespace {

struct Config {
  std::string model = "cnn";
  int epochs = 5;
  int64_t batch_size = 64;
  double lr = 1e-3;
  int threads = 0;  // 0: library default
  uint64_t seed = 1;
  std::string data_dir = "/usr/share/datasets/fashion-mnist";
  std::string checkpoint = "fashion_mnist.safetensors";
  int log_every = 100;
};

[[noreturn]] void usage(const char* argv0, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--model cnn|mlp] [--epochs N] [--batch-size N] [--lr X] "
               "[--threads N] [--seed N] [--data-dir DIR] [--checkpoint PATH] [--log-every N]\n",
               argv0, why.c_str(), argv0);
  std::exit(2);
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string key = argv[i];
    if (key == "--help" || key == "-h") usage(argv[0], "help");
    if (i + 1 >= argc) usage(argv[0], "missing value for " + key);
    std::string v = argv[++i];
    try {
      if (key == "--model")
        c.model = v;
      else if (key == "--epochs")
        c.epochs = std::stoi(v);
      else if (key == "--batch-size")
        c.batch_size = std::stoll(v);
      else if (key == "--lr")
        c.lr = std::stod(v);
      else if (key == "--threads")
        c.threads = std::stoi(v);
      else if (key == "--seed")
        c.seed = std::stoull(v);
      else if (key == "--data-dir")
        c.data_dir = v;
      else if (key == "--checkpoint")
        c.checkpoint = v;
      else if (key == "--log-every")
        c.log_every = std::stoi(v);
      else
        usage(argv[0], "unknown option " + key);
    } catch (const std::logic_error&) {
      usage(argv[0], "bad value '" + v + "' for " + key);
    }
  }
  if (c.model != "cnn" && c.model != "mlp") usage(argv[0], "--model must be cnn or mlp");
  if (c.epochs < 1 || c.batch_size < 1 || c.lr <= 0 || c.log_every < 1)
    usage(argv[0], "epochs, batch size, lr and log-every must be positive");
  return c;
}

// Fashion-MNIST's pixel mean and standard deviation (training set).
constexpr double kMean = 0.2860, kStd = 0.3530;

template <class Model>
double evaluate(Model& model, const std::string& dir) {
  auto test = torch::data::datasets::MNIST(dir, torch::data::datasets::MNIST::Mode::kTest)
                  .map(torch::data::transforms::Normalize<>(kMean, kStd))
                  .map(torch::data::transforms::Stack<>());
  const auto n = static_cast<double>(test.size().value());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(test), torch::data::DataLoaderOptions().batch_size(1000));
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  for (auto& batch : *loader)
    correct += model->forward(batch.data).argmax(1).eq(batch.target).sum().template item<int64_t>();
  return correct / n;
}

template <class Model>
int train(Model model, const Config& c) {
  auto train_set = torch::data::datasets::MNIST(c.data_dir)
                       .map(torch::data::transforms::Normalize<>(kMean, kStd))
                       .map(torch::data::transforms::Stack<>());
  const int64_t n = static_cast<int64_t>(train_set.size().value());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(c.batch_size).workers(2));
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(c.lr));
  const int64_t steps = (n + c.batch_size - 1) / c.batch_size;
  std::printf("training %s on %lld images, %d epochs, batch %lld, AdamW lr %g, %d threads\n",
              c.model.c_str(), static_cast<long long>(n), c.epochs,
              static_cast<long long>(c.batch_size), c.lr, torch::get_num_threads());
  double total_seconds = 0, accuracy = 0;
  for (int epoch = 1; epoch <= c.epochs; ++epoch) {
    model->train();
    Progress progress(epoch, c.epochs, steps, c.log_every);
    int64_t step = 0, seen = 0;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      torch::Tensor loss =
          torch::nn::functional::cross_entropy(model->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      seen += batch.data.size(0);
      progress.update(++step, loss.template item<double>(), seen);
    }
    progress.finish();
    const double seconds = progress.seconds();
    total_seconds += seconds;
    accuracy = evaluate(model, c.data_dir);
    std::printf("epoch %d: test accuracy %.2f%% (%.1f s training)\n", epoch, 100 * accuracy,
                seconds);
  }
  save_checkpoint(*model, c.checkpoint);
  std::printf("done: %s, test accuracy %.2f%%, %.1f s training; checkpoint %s\n", c.model.c_str(),
              100 * accuracy, total_seconds, c.checkpoint.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Config c = parse(argc, argv);
  torch::manual_seed(c.seed);
  if (c.threads > 0) torch::set_num_threads(c.threads);
  try {
    return c.model == "cnn" ? train(Cnn(), c) : train(Mlp(), c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fashion_mnist: %s\n", e.what());
    return 1;
  }
}
