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
// Usage: ddp_fashion_mnist [--model mlp|cnn] [--epochs N] [--batch-size N (per rank)] [--lr X]
//          [--max-steps N] [--checkpoint-dir DIR] [--checkpoint-every N] [--fail-at-step S]
//          [--out PATH] [--data-dir DIR]

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

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

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--model")
      c.model = v;
    else if (k == "--data-dir")
      c.data_dir = v;
    else if (k == "--checkpoint-dir")
      c.checkpoint_dir = v;
    else if (k == "--out")
      c.out = v;
    else if (k == "--epochs")
      c.epochs = std::stoi(v);
    else if (k == "--batch-size")
      c.batch_size = std::stoll(v);
    else if (k == "--max-steps")
      c.max_steps = std::stoll(v);
    else if (k == "--checkpoint-every")
      c.checkpoint_every = std::stoll(v);
    else if (k == "--fail-at-step")
      c.fail_at_step = std::stoll(v);
    else if (k == "--lr")
      c.lr = std::stod(v);
    else
      throw std::invalid_argument("unknown option " + k);
  }
  return c;
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
  try {
    const Config c = parse(argc, argv);
    return c.model == "cnn" ? train(Cnn(), c) : train(Mlp(), c);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ddp_fashion_mnist: %s\n", e.what());
    return 1;
  }
}
