// A training process for the resume tests (tests/serialize/test_resume.cpp):
//   resume_worker train <dir> <total_steps> <stop_after> <out.pt>
//     trains from a checkpoint in <dir> if there is one (else from scratch), checkpointing after
//     every step; exits after step <stop_after> (without writing <out.pt>) or, at <total_steps>,
//     writes the model and optimizer to <out.pt>.
//   resume_worker hammer <dir>
//     writes checkpoints of a ~16 MB model in a loop until killed.
// The model uses dropout, the loader shuffles with two worker threads, and a OneCycle schedule
// steps every step, so a resume must restore the RNG, the data position and the scheduler.

#include <torch/torch.h>

#include <cstdio>
#include <string>

#include "brasa/serialize/checkpoint.h"

namespace {

struct Points : torch::data::datasets::Dataset<Points> {
  torch::Tensor x, y;
  Points() {
    torch::Generator g = brasa::make_generator(7);
    x = torch::randn({100, 8}, g);
    y = (x.sum(1) > 0).to(torch::kLong);
  }
  torch::data::Example<> get(size_t i) override {
    const auto k = static_cast<int64_t>(i);
    return {x[k], y[k]};
  }
  std::optional<size_t> size() const override { return 100; }
};

int train(const std::string& dir, int64_t total, int64_t stop_after, const std::string& out) {
  torch::manual_seed(3);
  torch::nn::Sequential model(torch::nn::Linear(8, 32), torch::nn::ReLU(), torch::nn::Dropout(0.2),
                              torch::nn::Linear(32, 2));
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-2));
  torch::optim::OneCycleLR schedule(optimizer, 0.05, total);
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Points().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(16).workers(2));

  brasa::serialize::Checkpointer ckpt(dir, 2);
  ckpt.track("model", *model).track("optimizer", optimizer).track("scheduler", schedule);
  ckpt.track("data", *loader);
  int64_t step = ckpt.restore().value_or(0);
  while (step < total) {
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      schedule.step();
      ckpt.save(++step);
      if (step == stop_after) return 0;
      if (step == total) break;
    }
  }
  torch::serialize::OutputArchive archive, m, o;
  model->save(m);
  optimizer.save(o);
  archive.write("model", m);
  archive.write("optimizer", o);
  archive.save_to(out);
  return 0;
}

int hammer(const std::string& dir) {
  torch::nn::Linear big(1024, 4096);
  brasa::serialize::Checkpointer ckpt(dir, 2);
  ckpt.track("model", *big);
  for (int64_t step = 1;; ++step) {
    {
      torch::NoGradGuard no_grad;
      big->weight.fill_(static_cast<double>(step));
    }
    ckpt.save(step);
    std::fprintf(stdout, "%lld\n", static_cast<long long>(step));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "train" && argc == 6)
      return train(argv[2], std::stoll(argv[3]), std::stoll(argv[4]), argv[5]);
    if (mode == "hammer" && argc == 3) return hammer(argv[2]);
    std::fprintf(stderr, "usage: resume_worker train DIR TOTAL STOP OUT | hammer DIR\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "resume_worker: %s\n", e.what());
    return 1;
  }
}
