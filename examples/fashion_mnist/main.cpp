// brasa's main job: trains a small CNN (or --model mlp) on Fashion-MNIST from Debian's
// dataset-fashion-mnist package, evaluates test accuracy after every epoch and saves the model.
// Written against libtorch's C++ API (<torch/torch.h>); training checkpoints (checkpoint.h) use
// brasa's Checkpointer, which libtorch lacks.
//
// Usage: fashion_mnist [--model cnn|mlp] [--epochs N] [--batch-size N] [--lr X] [--threads N]
//                      [--seed N] [--data-dir DIR] [--checkpoint PATH] [--log-every N]
//                      [--checkpoint-dir DIR] [--checkpoint-every STEPS] [--resume]
//                      [--max-steps N] [--logits PATH] [--device DEV] [--backend LIB]
// Every --checkpoint-every steps and at the end of each epoch the model, optimizer, data position
// and RNG go to --checkpoint-dir (last 3 kept); --resume continues from the newest one and
// finishes exactly as the uninterrupted run would have. The final model is written as safetensors
// (--checkpoint) and as a torch.save state_dict next to it (.pt), both readable by PyTorch;
// --logits saves the model's logits for the first 64 test images (for interop checks), and
// --max-steps stops training early (smoke tests). --device trains on another device (e.g. "npu"
// from a backend library given by --backend or BRASA_BACKENDS) and prints which ops fell back to
// the CPU.

#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "brasa/backend.h"
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
  std::string checkpoint_dir = "fashion_mnist_checkpoints";
  int64_t checkpoint_every = 500;
  bool resume = false;
  int64_t max_steps = 0;  // 0: no limit
  std::string logits;
  std::string device = "cpu";
  std::string backend;  // a backend library to load first
};

[[noreturn]] void usage(const char* argv0, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--model cnn|mlp] [--epochs N] [--batch-size N] [--lr X] "
               "[--threads N] [--seed N] [--data-dir DIR] [--checkpoint PATH] [--log-every N] "
               "[--checkpoint-dir DIR] [--checkpoint-every STEPS] [--resume] [--max-steps N] "
               "[--logits PATH] [--device DEV] [--backend LIB]\n",
               argv0, why.c_str(), argv0);
  std::exit(2);
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string key = argv[i];
    if (key == "--help" || key == "-h") usage(argv[0], "help");
    if (key == "--resume") {
      c.resume = true;
      continue;
    }
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
      else if (key == "--checkpoint-dir")
        c.checkpoint_dir = v;
      else if (key == "--checkpoint-every")
        c.checkpoint_every = std::stoll(v);
      else if (key == "--max-steps")
        c.max_steps = std::stoll(v);
      else if (key == "--device")
        c.device = v;
      else if (key == "--backend")
        c.backend = v;
      else if (key == "--logits")
        c.logits = v;
      else
        usage(argv[0], "unknown option " + key);
    } catch (const std::logic_error&) {
      usage(argv[0], "bad value '" + v + "' for " + key);
    }
  }
  if (c.model != "cnn" && c.model != "mlp") usage(argv[0], "--model must be cnn or mlp");
  if (c.epochs < 1 || c.batch_size < 1 || c.lr <= 0 || c.log_every < 1 || c.checkpoint_every < 1)
    usage(argv[0], "epochs, batch size, lr, log-every and checkpoint-every must be positive");
  return c;
}

// Fashion-MNIST's pixel mean and standard deviation (training set).
constexpr double kMean = 0.2860, kStd = 0.3530;

template <class Model>
double evaluate(Model& model, const std::string& dir, torch::Device device) {
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
    correct += model->forward(batch.data.to(device))
                   .argmax(1)
                   .eq(batch.target.to(device))
                   .sum()
                   .template item<int64_t>();
  return correct / n;
}

// The logits of the first 64 test images, saved with torch::save.
template <class Model>
void save_logits(Model& model, const std::string& dir, const std::string& path,
                 torch::Device device) {
  auto test = torch::data::datasets::MNIST(dir, torch::data::datasets::MNIST::Mode::kTest)
                  .map(torch::data::transforms::Normalize<>(kMean, kStd))
                  .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(test), torch::data::DataLoaderOptions().batch_size(64));
  torch::NoGradGuard no_grad;
  model->eval();
  torch::save(model->forward((*loader->begin()).data.to(device)).cpu(), path);
}

template <class Model>
int train(Model model, const Config& c) {
  const torch::Device device(c.device);
  model->to(device);
  auto train_set = torch::data::datasets::MNIST(c.data_dir)
                       .map(torch::data::transforms::Normalize<>(kMean, kStd))
                       .map(torch::data::transforms::Stack<>());
  const int64_t n = static_cast<int64_t>(train_set.size().value());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(c.batch_size).workers(2));
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(c.lr));
  const int64_t steps = (n + c.batch_size - 1) / c.batch_size;
  std::printf("training %s on %lld images on %s, %d epochs, batch %lld, AdamW lr %g, %d threads\n",
              c.model.c_str(), static_cast<long long>(n), device.str().c_str(), c.epochs,
              static_cast<long long>(c.batch_size), c.lr, torch::get_num_threads());
  TrainingCheckpoints checkpoints(c.checkpoint_dir);
  checkpoints.track(model, optimizer, *loader);
  int64_t global_step = 0;
  if (c.resume) global_step = checkpoints.resume();
  double total_seconds = 0, accuracy = 0;
  for (int epoch = static_cast<int>(global_step / steps) + 1; epoch <= c.epochs; ++epoch) {
    model->train();
    Progress progress(epoch, c.epochs, steps, c.log_every);
    int64_t step = global_step - (epoch - 1) * steps;
    int64_t seen = step * c.batch_size;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      torch::Tensor loss = torch::nn::functional::cross_entropy(
          model->forward(batch.data.to(device)), batch.target.to(device));
      loss.backward();
      optimizer.step();
      seen += batch.data.size(0);
      progress.update(++step, loss.template item<double>(), seen);
      if (++global_step % c.checkpoint_every == 0) checkpoints.save(global_step);
      if (global_step == c.max_steps) break;
    }
    progress.finish();
    checkpoints.save(global_step);
    const double seconds = progress.seconds();
    total_seconds += seconds;
    accuracy = evaluate(model, c.data_dir, device);
    std::printf("epoch %d: test accuracy %.2f%% (%.1f s training)\n", epoch, 100 * accuracy,
                seconds);
    if (global_step == c.max_steps) break;
  }
  const std::string pt = save_model(model, c.checkpoint);
  if (!c.logits.empty()) save_logits(model, c.data_dir, c.logits, device);
  std::printf("done: %s, test accuracy %.2f%%, %.1f s training; model %s and %s\n", c.model.c_str(),
              100 * accuracy, total_seconds, c.checkpoint.c_str(), pt.c_str());
  if (!device.is_cpu()) brasa::backend::print_fallback_report(std::cout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Config c = parse(argc, argv);
  torch::manual_seed(c.seed);
  if (c.threads > 0) torch::set_num_threads(c.threads);
  try {
    if (!c.backend.empty()) brasa::backend::load_backend(c.backend);
    return c.model == "cnn" ? train(Cnn(), c) : train(Mlp(), c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fashion_mnist: %s\n", e.what());
    return 1;
  }
}
