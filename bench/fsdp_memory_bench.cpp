// FSDP vs DDP memory and step time, one process per rank, under brasarun:
//   build/release/tools/brasarun --nproc-per-node 4 build/release/bench/fsdp_memory_bench fsdp
//   build/release/tools/brasarun --nproc-per-node 4 build/release/bench/fsdp_memory_bench ddp
//   (fsdp-no-prefetch: every all-gather issued where it is needed; the all-gather wait with and
//   without prefetch gives the fraction of its time hidden)
// The model: 12 Linear(2048, 2048) layers with ReLU between (50,356,224 float32 parameters),
// AdamW, a batch of 16 x 2048 per rank. fsdp: every layer a fully_shard unit, then the root;
// ddp: DistributedDataParallel. Prints (rank 0; the largest figure over the ranks):
//   steady: allocator bytes held after optimizer.step() -- parameters + gradients + AdamW state
//           (activations are gone by then), next to the 16 bytes/parameter accounting (/N for
//           FSDP);
//   peak:   the allocator's high-water mark over the steps (adds activations, the unsharded
//           units, gradient buckets and communication buffers);
//   step:   the median step time.
// Counts come from the CPU caching allocator (brasa::memory_stats); Gloo's own staging buffers
// are plain heap memory and not counted.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/distributed.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;

constexpr int64_t kWidth = 2048, kLayers = 12, kBatch = 16;
constexpr int kSteps = 4;

struct MlpImpl : nn::Module {
  MlpImpl() {
    for (int64_t i = 0; i < kLayers; ++i) {
      layers.push_back(register_module("layer" + std::to_string(i), nn::Linear(kWidth, kWidth)));
      calls.push_back([l = layers.back()](const Tensor& x) mutable { return l->forward(x); });
    }
  }
  Tensor forward(Tensor x) {
    for (size_t i = 0; i < calls.size(); ++i)
      x = i + 1 < calls.size() ? relu(calls[i](x)) : calls[i](x);
    return x;
  }
  std::vector<nn::Linear> layers;
  std::vector<std::function<Tensor(const Tensor&)>> calls;
};
BRASA_MODULE(Mlp);

int64_t max_over_ranks(dist::ProcessGroup& pg, int64_t v) {
  std::vector<Tensor> t{full({1}, static_cast<double>(v), kDouble)};
  dist::AllreduceOptions o;
  o.reduceOp = dist::ReduceOp::MAX;
  pg.allreduce(t, o)->wait();
  return static_cast<int64_t>(t[0].item<double>());
}

}  // namespace

int main(int argc, char** argv) {
  const bool fsdp = argc > 1 && std::strncmp(argv[1], "fsdp", 4) == 0;
  const bool prefetch = !(argc > 1 && std::strcmp(argv[1], "fsdp-no-prefetch") == 0);
  auto pg = dist::init_process_group("gloo");
  const int rank = pg->getRank(), size = pg->getSize();
  manual_seed(0);
  Mlp model;
  int64_t numel = 0;
  for (const auto& p : model->parameters()) numel += p.numel();
  auto mesh = dist::init_device_mesh("cpu", {size});
  std::vector<dist::FSDPModule<nn::Linear>> units;
  std::optional<dist::FSDPModule<Mlp>> root;
  std::optional<dist::DistributedDataParallel<Mlp>> ddp;
  dist::FullyShardOptions options;
  options.prefetch = prefetch;
  if (fsdp) {
    for (size_t i = 0; i < model->layers.size(); ++i) {
      units.push_back(dist::fully_shard(model->layers[i], mesh, options));
      model->calls[i] = [u = units.back()](const Tensor& x) mutable { return u(x); };
    }
    root.emplace(dist::fully_shard(model, mesh, options));
  } else {
    ddp.emplace(model, pg);
  }
  optim::AdamW opt(model->parameters(), optim::AdamWOptions(1e-4));
  Tensor x = randn({kBatch, kWidth});
  reset_peak_memory_stats();
  std::vector<double> times;
  int64_t steady = 0;
  double gather_wait = 0;  // over the steps after the first
  for (int s = 0; s < kSteps; ++s) {
    for (auto& u : units) gather_wait -= s == 1 ? u.state().all_gather_wait_seconds() : 0;
    const auto start = std::chrono::steady_clock::now();
    opt.zero_grad(/*set_to_none=*/true);
    Tensor out = fsdp ? (*root)(x) : ddp->forward(x);
    out.pow(2).mean().backward();
    opt.step();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    steady = memory_stats().allocated_bytes;
  }
  for (auto& u : units) gather_wait += u.state().all_gather_wait_seconds();
  const int64_t peak = max_over_ranks(*pg, memory_stats().peak_allocated_bytes);
  steady = max_over_ranks(*pg, steady);
  std::sort(times.begin() + 1, times.end());
  const double step = times[1 + (times.size() - 1) / 2];
  if (rank == 0) {
    const double mib = 1024.0 * 1024.0;
    const double accounting = 16.0 * static_cast<double>(numel) / (fsdp ? size : 1);
    std::printf("%s, %d ranks, %lld parameters (float32, AdamW)\n", fsdp ? "FSDP" : "DDP", size,
                static_cast<long long>(numel));
    std::printf(
        "  steady (params + grads + AdamW state), per rank: %.1f MiB; 16 B/param%s: %.1f MiB\n",
        static_cast<double>(steady) / mib, fsdp ? " / N" : "", accounting / mib);
    std::printf("  peak over the steps, per rank: %.1f MiB\n", static_cast<double>(peak) / mib);
    std::printf("  median step time: %.3f s\n", step);
    if (fsdp) {
      std::printf("  all-gather wait per step (layer units, rank 0, prefetch %s): %.3f s\n",
                  prefetch ? "on" : "off", gather_wait / (kSteps - 1));
    }
  }
  dist::destroy_process_group();
  return 0;
}
