// The main job's model trained with DistributedDataParallel on Gloo, one process per rank:
//
//   build/release/tools/brasarun --nproc-per-node 2 build/release/examples/ddp_fashion_mnist
//
// Each rank reads its slice of Fashion-MNIST (DistributedRandomSampler, reshuffled every epoch).
// Every --checkpoint-every steps all ranks write their state (model, optimizer, data position,
// RNG) and, once all have, rank 0 commits the step; after a failure brasarun restarts the group
// (--max-restarts) and every rank resumes from the committed step, so the run ends exactly as an
// uninterrupted one. --fail-at-step S makes rank 1 kill itself (SIGKILL) at step S in the first
// generation (to test that).
//
// `ddp_fashion_mnist --help` lists the options (--model, --epochs, --batch-size per rank, --lr,
// --max-steps, --checkpoint-dir, ...) and their defaults.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../fashion_mnist/cli.h"
#include "../fashion_mnist/models.h"
#include "brasa/distributed.h"
#include "brasa/serialize/checkpoint.h"
#include "brasa/serialize/file_io.h"

namespace {
namespace dist = brasa::distributed;

struct Config {
  std::string model = "mlp", data_dir = "/usr/share/datasets/fashion-mnist";
  std::string checkpoint_dir = "ddp_checkpoints", out = "ddp_fashion_mnist.pt";
  int epochs = 1;
  int64_t batch_size = 32, max_steps = 0, checkpoint_every = 100, fail_at_step = -1;
  double lr = 1e-3;
};

void add_options(CLI::App& app, Config& c) {
  app.option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--model", c.model, "the network to train")->check(CLI::IsMember({"mlp", "cnn"}));
  app.add_option("--epochs", c.epochs, "passes over the training set")
      ->transform(cli::integer<int>(1));
  app.add_option("--batch-size", c.batch_size, "images per step and rank")
      ->transform(cli::integer<int64_t>(1));
  app.add_option("--lr", c.lr, "AdamW learning rate")->check(cli::positive_number());
  app.add_option("--max-steps", c.max_steps, "stop after this many steps (0: no limit)")
      ->transform(cli::integer<int64_t>());
  app.add_option("--checkpoint-dir", c.checkpoint_dir, "every rank's checkpoints and COMMITTED");
  app.add_option("--checkpoint-every", c.checkpoint_every, "steps between committed checkpoints")
      ->transform(cli::integer<int64_t>(1));
  app.add_option("--fail-at-step", c.fail_at_step, "rank 1 kills itself at this step (first run)")
      ->transform(cli::integer<int64_t>());
  app.add_option("--out", c.out, "the trained model (torch::save, rank 0)");
  app.add_option("--data-dir", c.data_dir, "Fashion-MNIST's idx files");
}

std::string committed_path(const Config& c) { return c.checkpoint_dir + "/COMMITTED"; }

template <class Model>
int train(Model model, const Config& c) {
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), world = pg->getSize();
  auto dataset = torch::data::datasets::MNIST(c.data_dir)
                     .map(torch::data::transforms::Normalize<>(0.2860, 0.3530))
                     .map(torch::data::transforms::Stack<>());
  const size_t n = dataset.size().value();
  auto loader = torch::data::make_data_loader(
      std::move(dataset),
      torch::data::samplers::DistributedRandomSampler(n, static_cast<size_t>(world),
                                                      static_cast<size_t>(rank)),
      torch::data::DataLoaderOptions().batch_size(static_cast<size_t>(c.batch_size)));
  dist::DistributedDataParallel<Model> ddp(model, pg);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(c.lr));

  brasa::serialize::Checkpointer ckpt(c.checkpoint_dir + "/rank" + std::to_string(rank), 3);
  ckpt.track("model", *model).track("optimizer", optimizer).track("data", *loader);
  int64_t step = 0;
  int epoch = 0;
  if (std::FILE* f = std::fopen(committed_path(c).c_str(), "r")) {
    long long committed = 0;
    const bool ok = std::fscanf(f, "%lld", &committed) == 1;
    std::fclose(f);
    if (ok) {
      char name[64];
      std::snprintf(name, sizeof name, "/checkpoint-%010lld.pt", committed);
      brasa::IValue extra;
      step = ckpt.restore(ckpt.directory() + name, &extra).value_or(0);
      epoch = static_cast<int>(extra.toInt());
      if (rank == 0) std::printf("resumed from the committed step %lld\n", committed);
    }
  }
  const char* generation = std::getenv("BRASA_RESTART_COUNT");
  const bool first_generation = generation == nullptr || std::string(generation) == "0";
  for (; epoch < c.epochs; ++epoch) {
    loader->sampler().set_epoch(static_cast<size_t>(epoch));
    double loss_sum = 0;
    int64_t batches = 0;
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(ddp.forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      loss_sum += loss.template item<double>();
      ++batches;
      ++step;
      if (rank == 1 && first_generation && step == c.fail_at_step) {
        std::fprintf(stderr, "simulated failure: killing rank 1 at step %lld\n",
                     static_cast<long long>(step));
        std::fflush(stderr);
        ::kill(::getpid(), SIGKILL);
      }
      if (step % c.checkpoint_every == 0) {
        ckpt.save(step, brasa::IValue(static_cast<int64_t>(epoch)));
        pg->barrier()->wait();  // every rank has its file: commit the step
        if (rank == 0) {
          const std::string s = std::to_string(step);
          brasa::serialize::write_file_atomic(committed_path(c), s.data(), s.size());
        }
      }
      if (step == c.max_steps) break;
    }
    if (rank == 0)
      std::printf("epoch %d: mean loss %.4f over %lld batches per rank (%d ranks)\n", epoch + 1,
                  batches ? loss_sum / static_cast<double>(batches) : 0.0,
                  static_cast<long long>(batches), world);
    if (step == c.max_steps) break;
  }
  if (rank == 0) torch::save(model, c.out);
  dist::destroy_process_group();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Config c;
  CLI::App app("Trains the main job's model with DistributedDataParallel (start it with brasarun).",
               "ddp_fashion_mnist");
  add_options(app, c);
  if (auto exit_code = cli::parse(app, argc, argv)) return *exit_code;
  try {
    return c.model == "cnn" ? train(Cnn(), c) : train(Mlp(), c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ddp_fashion_mnist: %s\n", e.what());
    return 1;
  }
}
