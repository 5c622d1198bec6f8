// brasa's main job: trains a small CNN (or --model mlp) on Fashion-MNIST from Debian's
// dataset-fashion-mnist package, evaluates test accuracy after every epoch and saves the model.
// Written against libtorch's C++ API (<torch/torch.h>); training checkpoints (checkpoint.h) use
// brasa's Checkpointer, which libtorch lacks.
//
// `fashion_mnist --help` lists the options and their defaults.
// Every --checkpoint-every steps and at the end of each epoch the model, optimizer, data position
// and RNG go to --checkpoint-dir (last 3 kept); --resume continues from the newest one and
// finishes exactly as the uninterrupted run would have. The final model is written as safetensors
// (--checkpoint) and as a torch.save state_dict next to it (.pt), both readable by PyTorch;
// --logits saves the model's logits for the first 64 test images (for interop checks), and
// --max-steps stops training early (smoke tests). --device trains on another device (e.g. "npu"
// from a backend library given by --backend or BRASA_BACKENDS) and prints which ops fell back to
// the CPU. --profile PATH profiles --profile-steps steps after ten of warm-up (data loader
// workers included), prints the key-averages table and writes a Chrome trace to PATH
// (docs/profiler.md).
// --tensorboard DIR logs loss, learning rate, gradient norm and throughput for TensorBoard
// (tensorboard_log.h).

#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "brasa/backend.h"
#include "brasa/profiler/profiler.h"
#include "checkpoint.h"
#include "cli.h"
#include "models.h"
#include "progress.h"
#include "tensorboard_log.h"

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
  std::string profile;  // Chrome trace of a few steps
  int64_t profile_steps = 20;
  std::string tensorboard;  // TensorBoard log dir; empty: no logs
};

void add_options(CLI::App& app, Config& c) {
  app.option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--model", c.model, "the network to train")->check(CLI::IsMember({"cnn", "mlp"}));
  app.add_option("--epochs", c.epochs, "passes over the training set")
      ->transform(cli::integer<int>(1));
  app.add_option("--batch-size", c.batch_size, "images per step")
      ->transform(cli::integer<int64_t>(1));
  app.add_option("--lr", c.lr, "AdamW learning rate")->check(cli::positive_number());
  app.add_option("--threads", c.threads, "CPU threads (0: the library's default)")
      ->transform(cli::integer<int>());
  app.add_option("--seed", c.seed, "random seed")->transform(cli::integer<uint64_t>());
  app.add_option("--data-dir", c.data_dir, "Fashion-MNIST's idx files");
  app.add_option("--checkpoint", c.checkpoint, "final model (safetensors; .pt next to it)");
  app.add_option("--log-every", c.log_every, "steps between progress lines")
      ->transform(cli::integer<int>(1));
  app.add_option("--checkpoint-dir", c.checkpoint_dir, "training checkpoints (last 3 kept)");
  app.add_option("--checkpoint-every", c.checkpoint_every, "steps between training checkpoints")
      ->transform(cli::integer<int64_t>(1));
  app.add_flag("--resume", c.resume, "continue from the newest training checkpoint");
  app.add_option("--max-steps", c.max_steps, "stop after this many steps (0: no limit)")
      ->transform(cli::integer<int64_t>());
  app.add_option("--logits", c.logits, "save the logits of the first 64 test images here");
  app.add_option("--device", c.device, "device to train on (e.g. npu from --backend)");
  app.add_option("--backend", c.backend, "backend library to load first");
  app.add_option("--profile", c.profile,
                 "profile a few steps after ten of warm-up: table on stdout, Chrome trace here");
  app.add_option("--profile-steps", c.profile_steps, "steps --profile records")
      ->transform(cli::integer<int64_t>(1));
  app.add_option("--tensorboard", c.tensorboard,
                 "write TensorBoard logs (loss, lr, grad norm, examples/s) to this directory");
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
  TensorBoardLog tensorboard(c.tensorboard);  // first: a bad log dir fails before any work
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
  brasa::profiler::Profiler profiler(brasa::profiler::ProfilerOptions().record_shapes(true));
  const int64_t profile_from = c.profile.empty() ? -1 : global_step + 10;
  auto finish_profile = [&] {
    if (!profiler.recording()) return;
    profiler.stop();
    std::printf("\n%s", profiler.table(brasa::profiler::SortBy::SelfCpuTimeTotal, 25).c_str());
    profiler.export_chrome_trace(c.profile);
    std::printf("profile: %lld steps, %zu events -> %s\n", static_cast<long long>(c.profile_steps),
                profiler.events().size(), c.profile.c_str());
  };
  double total_seconds = 0, accuracy = 0;
  for (int epoch = static_cast<int>(global_step / steps) + 1; epoch <= c.epochs; ++epoch) {
    model->train();
    Progress progress(epoch, c.epochs, steps, c.log_every);
    int64_t step = global_step - (epoch - 1) * steps;
    int64_t seen = step * c.batch_size;
    const int64_t seen_before = seen;  // a resumed epoch's rate counts only this run's images
    for (auto& batch : *loader) {
      if (global_step == profile_from) profiler.start();
      brasa::profiler::RecordScope step_range("train_step");
      if (tensorboard) tensorboard.start_step();
      optimizer.zero_grad();
      torch::Tensor loss = torch::nn::functional::cross_entropy(
          model->forward(batch.data.to(device)), batch.target.to(device));
      loss.backward();
      if (tensorboard) tensorboard.grad_norm(model->parameters());
      optimizer.step();
      seen += batch.data.size(0);
      const double loss_value = loss.template item<double>();
      progress.update(++step, loss_value, seen);
      step_range.end();
      if (tensorboard)
        tensorboard.end_step(global_step + 1, loss_value,
                             optimizer.param_groups()[0].options().get_lr(), batch.data.size(0));
      if (++global_step == profile_from + c.profile_steps) finish_profile();
      if (global_step % c.checkpoint_every == 0) checkpoints.save(global_step);
      if (global_step == c.max_steps) break;
    }
    finish_profile();  // an epoch shorter than the profiled steps
    progress.finish();
    checkpoints.save(global_step);
    const double seconds = progress.seconds();
    total_seconds += seconds;
    accuracy = evaluate(model, c.data_dir, device);
    if (tensorboard)
      tensorboard.end_epoch(global_step, accuracy,
                            seconds > 0 ? (seen - seen_before) / seconds : 0);
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
  Config c;
  CLI::App app("Trains a small CNN or MLP on Fashion-MNIST, then saves it.", "fashion_mnist");
  add_options(app, c);
  if (auto exit_code = cli::parse(app, argc, argv)) return *exit_code;
  torch::manual_seed(c.seed);
  if (c.threads > 0) torch::set_num_threads(c.threads);
  try {
    if (!c.profile.empty()) brasa::profiler::check_trace_path(c.profile);  // before any training
    if (!c.backend.empty()) brasa::backend::load_backend(c.backend);
    return c.model == "cnn" ? train(Cnn(), c) : train(Mlp(), c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fashion_mnist: %s\n", e.what());
    return 1;
  }
}
