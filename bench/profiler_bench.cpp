// The profiler's cost: add_1, autograd_1 and mlp_step (bench_common.h) with no profiler, with one
// recording, and with one recording input shapes. Prints one line per workload and mode (median
// and minimum per run, as brasa_bench does) and the ratio of each mode to "off". The cost when
// off is measured against a build without the profiler: scripts/profiler_overhead.sh.
//
//   build/release/bench/profiler_bench   (BENCH_ONLY=add_1 selects workloads)

#include <brasa/brasa.h>
#include <brasa/profiler/profiler.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

namespace F = brasa::nn::functional;
using Run = std::function<void()>;

// Rounds of one repetition per mode, modes alternating, so that drift in the machine's load
// favours none; per mode the median and the minimum over rounds of (repetition time / inner).
void measure(const char* name, const Run& run) {
  using clock = std::chrono::steady_clock;
  const bench::Workload& w = bench::workload(name);
  if (!bench::selected(name)) return;
  const char* modes[] = {"off", "on", "on+shapes"};
  std::map<std::string, std::vector<double>> times;
  std::map<std::string, size_t> events;
  for (int i = 0; i < w.warmup * w.inner; ++i) run();
  for (int round = 0; round < 3 * w.reps; ++round) {
    for (const std::string mode : modes) {
      brasa::profiler::Profiler prof(
          brasa::profiler::ProfilerOptions().record_shapes(mode == "on+shapes"));
      if (mode != "off") prof.start();
      auto t0 = clock::now();
      for (int j = 0; j < w.inner; ++j) run();
      std::chrono::duration<double> dt = clock::now() - t0;
      prof.stop();
      times[mode].push_back(dt.count() / w.inner);
      events[mode] = prof.events().size();
    }
  }
  double off = 0;
  for (const std::string mode : modes) {
    std::vector<double>& t = times[mode];
    std::sort(t.begin(), t.end());
    const double median = t[t.size() / 2];
    if (mode == "off") off = median;
    std::printf("%-12s %-10s median %10.3f us  min %10.3f us  x%.2f  events/iteration %.1f\n", name,
                mode.c_str(), median * 1e6, t.front() * 1e6, median / off,
                double(events[mode]) / w.inner);
  }
}

}  // namespace

int main() {
  brasa::set_num_threads(1);
  brasa::Tensor x1 = brasa::rand({1}), y1 = brasa::rand({1});
  measure("add_1", [&] { brasa::Tensor z = x1 + y1; });

  brasa::Tensor xg = brasa::rand({1}).requires_grad_(true);
  measure("autograd_1", [&] { (xg * 2 + 1).sum().backward(); });

  using bench::kMlpBatch, bench::kMlpIn, bench::kMlpHidden, bench::kMlpOut;
  brasa::Tensor X = brasa::rand({kMlpBatch, kMlpIn});
  brasa::Tensor labels =
      brasa::randint(0, kMlpOut, {kMlpBatch}, brasa::TensorOptions(brasa::kLong));
  brasa::Tensor W1 = (brasa::rand({kMlpHidden, kMlpIn}) * 0.05).requires_grad_(true);
  brasa::Tensor b1 = (brasa::rand({kMlpHidden}) * 0.05).requires_grad_(true);
  brasa::Tensor W2 = (brasa::rand({kMlpHidden, kMlpHidden}) * 0.05).requires_grad_(true);
  brasa::Tensor b2 = (brasa::rand({kMlpHidden}) * 0.05).requires_grad_(true);
  brasa::Tensor W3 = (brasa::rand({kMlpOut, kMlpHidden}) * 0.05).requires_grad_(true);
  brasa::Tensor b3 = (brasa::rand({kMlpOut}) * 0.05).requires_grad_(true);
  brasa::Tensor params[] = {W1, b1, W2, b2, W3, b3};
  measure("mlp_step", [&] {
    for (auto& p : params) p.mutable_grad().reset();
    brasa::Tensor h1 = brasa::linear(X, W1, b1).relu();
    brasa::Tensor h2 = brasa::linear(h1, W2, b2).relu();
    F::cross_entropy(brasa::linear(h2, W3, b3), labels).backward();
  });
  return 0;
}
