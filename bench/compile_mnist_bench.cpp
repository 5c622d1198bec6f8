// The Fashion-MNIST job's two models (examples/fashion_mnist/models.h: the CNN, conv 32 -> pool ->
// conv 64 -> pool -> fc 128 -> fc 10, and the 784-512-512-10 MLP) eager and through brasa::compile:
// a training step (forward, cross-entropy, backward, AdamW) at batch 64, compiled loss against
// eager, best of interleaved rounds; and AdamW's fused kernel against a compiled update.
// docs/benchmarks.md, "Compile: ... conv + relu (issue 16, eighth slice)". Usage:
// compile_mnist_bench [threads] [rounds]; BENCH_PROFILE=N prints where N compiled steps go.
#include <algorithm>
#include <cmath>
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
  auto fused_eager_step = bench::fused_eager_step(step);
  double eager_ms = 1e300, compiled_ms = 1e300, fused_eager_ms = 1e300;
  for (int r = 0; r < rounds; ++r) {
    eager_ms = std::min(eager_ms, bench::best_ms([&] { step(false); }, 3));
    compiled_ms = std::min(compiled_ms, bench::best_ms([&] { step(true); }, 3));
    fused_eager_ms = std::min(fused_eager_ms, bench::best_ms(fused_eager_step, 3));
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
      "(loss eager %.6f, compiled %.6f); fused eager %.3f ms (%.2f)\n",
      name, eager_ms, compiled_ms, compiled_ms / eager_ms, eager_loss, compiled_value,
      fused_eager_ms, fused_eager_ms / eager_ms);
  std::printf("%s step's peak memory beyond the model's: eager %.1f MiB, compiled %.1f MiB\n", name,
              bench::step_peak_mib(step, false), bench::step_peak_mib(step, true));
}

// Item 7 of the issue: AdamW over the MLP's parameters (670K) as the fused optimizer kernel
// (torch::optim::AdamW's step) against the same update written with ops and compiled (one
// generated kernel per parameter: p, g, m, v in, p, m, v out, then copied back in place, since a
// compiled graph runs an in-place write of its inputs op by op).
void optimizer_step(Mlp& model, int rounds) {
  std::vector<torch::Tensor> params = model->parameters();
  for (torch::Tensor& p : params) p.mutable_grad() = torch::randn_like(p) * 1e-2;
  torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(1e-4));
  const double lr = 1e-4, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 1e-2;
  auto update = [=](const torch::Tensor& p, const torch::Tensor& g, const torch::Tensor& m,
                    const torch::Tensor& v, const torch::Tensor& c1, const torch::Tensor& c2) {
    torch::Tensor m2 = m * b1 + g * (1 - b1), v2 = v * b2 + g * g * (1 - b2);
    torch::Tensor p2 = p * (1 - lr * wd) - m2 / c1 * lr / ((v2 / c2).sqrt() + eps);
    return std::vector<torch::Tensor>{p2, m2, v2};
  };
  auto compiled = brasa::compile(update);
  std::vector<torch::Tensor> m, v;
  for (const torch::Tensor& p : params)
    m.push_back(torch::zeros_like(p)), v.push_back(m.back() + 0);
  int64_t t = 0;
  auto compiled_step = [&] {
    torch::NoGradGuard no_grad;
    ++t;
    const torch::Tensor c1 = torch::tensor(1 - std::pow(b1, double(t)));
    const torch::Tensor c2 = torch::tensor(1 - std::pow(b2, double(t)));
    for (size_t i = 0; i < params.size(); ++i) {
      std::vector<torch::Tensor> r = compiled(params[i], params[i].grad(), m[i], v[i], c1, c2);
      params[i].copy_(r[0]), m[i].copy_(r[1]), v[i].copy_(r[2]);
    }
  };
  compiled_step();
  double fused_ms = 1e300, compiled_ms = 1e300;
  for (int r = 0; r < rounds; ++r) {
    fused_ms = std::min(fused_ms, bench::best_ms([&] { optimizer.step(); }, 3));
    compiled_ms = std::min(compiled_ms, bench::best_ms(compiled_step, 3));
  }
  std::printf("AdamW over the MLP's parameters: fused kernel %.3f ms, compiled update %.3f ms\n",
              fused_ms, compiled_ms);
}

int main(int argc, char** argv) {
  if (argc > 1) torch::set_num_threads(std::atoi(argv[1]));
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  torch::manual_seed(0);
  Cnn cnn;
  run("CNN", cnn, rounds);
  Mlp mlp;
  run("MLP", mlp, rounds);
  optimizer_step(mlp, rounds);
  return 0;
}
