// Distributed benchmark, one process per rank, under brasarun:
//   build/release/tools/brasarun --nproc-per-node 2 build/release/bench/dist_bench
// Prints (rank 0):
//   1. 2,000 small gradients (100 floats each): one allreduce per tensor vs the same data packed
//      into DDP-style buckets (1 MiB first, then 25 MiB) — the speedup of bucketing.
//   2. The MLP step (784-512-512-10, batch 128 per rank, SGD) with and without DDP; on 1 rank the
//      ratio is DDP's overhead.
//   3. With 2+ ranks: how much of the gradient communication is hidden behind backward
//      (1 - the wait left after backward / the communication time measured on its own).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/distributed.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The median of `reps` timings of fn (after one warm-up).
template <typename Fn>
double median_time(int reps, Fn fn) {
  fn();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    auto start = Clock::now();
    fn();
    t.push_back(seconds_since(start));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void small_gradients(dist::ProcessGroup& pg) {
  std::vector<Tensor> grads;
  for (int i = 0; i < 2000; ++i) grads.push_back(ones({100}));
  const double per_tensor = median_time(5, [&] {
    std::vector<IntrusivePtr<dist::Work>> works;
    for (auto& g : grads) {
      std::vector<Tensor> t{g};
      works.push_back(pg.allreduce(t));
    }
    for (auto& w : works) w->wait();
  });
  const auto buckets = dist::compute_bucket_assignment_by_size(
      grads,
      [&] {
        std::vector<size_t> order(grads.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
        return order;
      }(),
      1 << 20, 25 << 20);
  const double bucketed = median_time(5, [&] {
    std::vector<IntrusivePtr<dist::Work>> works;
    std::vector<Tensor> flats;
    for (const auto& b : buckets) {
      std::vector<Tensor> parts;
      for (size_t i : b) parts.push_back(grads[i]);
      flats.push_back(cat(parts));
      std::vector<Tensor> t{flats.back()};
      works.push_back(pg.allreduce(t));
    }
    for (auto& w : works) w->wait();
  });
  if (pg.getRank() == 0)
    std::printf(
        "allreduce of 2000 x 100 floats: per tensor %.2f ms, bucketed (%zu buckets) "
        "%.3f ms: %.1fx faster\n",
        per_tensor * 1e3, buckets.size(), bucketed * 1e3, per_tensor / bucketed);
}

struct MlpImpl : nn::Module {
  MlpImpl() : fc1(784, 512), fc2(512, 512), fc3(512, 10) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("fc3", fc3);
  }
  Tensor forward(const Tensor& x) {
    return fc3->forward(relu(fc2->forward(relu(fc1->forward(x)))));
  }
  nn::Linear fc1, fc2, fc3;
};
BRASA_MODULE(Mlp);

void mlp_step(const IntrusivePtr<dist::ProcessGroup>& pg) {
  manual_seed(0);
  Tensor x = randn({128, 784}), y = randint(0, 10, {128});
  Mlp plain;
  optim::SGD opt_plain(plain->parameters(), optim::SGDOptions(0.01));
  const double t_plain = median_time(30, [&] {
    opt_plain.zero_grad(/*set_to_none=*/true);
    nn::functional::cross_entropy(plain->forward(x), y).backward();
    opt_plain.step();
  });
  Mlp model;
  dist::DistributedDataParallel<Mlp> ddp(model, pg);
  optim::SGD opt(model->parameters(), optim::SGDOptions(0.01));
  std::vector<double> waits;
  const double t_ddp = median_time(30, [&] {
    opt.zero_grad(/*set_to_none=*/true);
    nn::functional::cross_entropy(ddp.forward(x), y).backward();
    waits.push_back(ddp.reducer().last_wait_seconds());
    opt.step();
  });
  std::sort(waits.begin(), waits.end());
  // The same buckets' allreduces alone, without backward to hide behind.
  std::vector<Tensor> flats;
  for (const auto& b : ddp.reducer().bucket_indices()) {
    int64_t n = 0;
    auto params = model->parameters();
    for (size_t i : b) n += params[i].numel();
    flats.push_back(zeros({n}));
  }
  const double t_comm = median_time(30, [&] {
    std::vector<IntrusivePtr<dist::Work>> works;
    for (auto& f : flats) {
      std::vector<Tensor> t{f};
      works.push_back(pg->allreduce(t));
    }
    for (auto& w : works) w->wait();
  });
  if (pg->getRank() != 0) return;
  std::printf("MLP step (batch 128/rank, %d rank(s)): plain %.2f ms, DDP %.2f ms (%+.1f%%)\n",
              pg->getSize(), t_plain * 1e3, t_ddp * 1e3, (t_ddp / t_plain - 1) * 100);
  if (pg->getSize() > 1) {
    const double exposed = waits[waits.size() / 2];
    std::printf(
        "gradient communication: %.2f ms alone, %.2f ms left after backward: %.0f%% "
        "hidden behind backward\n",
        t_comm * 1e3, exposed * 1e3, std::max(0.0, 1 - exposed / t_comm) * 100);
  }
}

}  // namespace

int main() {
  try {
    auto pg = dist::init_process_group("gloo");
    small_gradients(*pg);
    mlp_step(pg);
    dist::destroy_process_group();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dist_bench: %s\n", e.what());
    return 1;
  }
}
