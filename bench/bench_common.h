#pragma once
// The timing method and the workload table shared by brasa_bench.cpp and libtorch_bench.cpp
// (torch_bench.py mirrors both; report.py checks that the three recorded the same parameters).
//
// Method: per workload and thread count, run `warmup` untimed repetitions, then `reps` timed ones;
// a repetition runs the workload `inner` times back to back and is timed with steady_clock. The
// figure is the median over repetitions of (repetition time / inner); the minimum is kept too.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

constexpr int64_t kBig = int64_t(1) << 24;  // 16M floats = 64 MiB
constexpr int64_t kRows = 4096, kCols = 1024;
constexpr int kChainPairs = 10;
constexpr double kChainMul = 0.5, kChainAdd = 0.25;  // y = y * 0.5 + 0.25 stays in [-1, 1]

struct Workload {
  const char* name;
  int inner;
  int warmup;
  int reps;
};

// Same order, names and counts in torch_bench.py.
constexpr Workload kWorkloads[] = {
    {"add_1", 20000, 1, 7},          // x + y on 1-element tensors
    {"add_16M", 1, 2, 9},            // x + y on 16M floats into a fresh result
    {"chain_16M", 1, 1, 5},          // 10 x (y = y * 0.5 + 0.25), scalars a and b
    {"sum_16M", 2, 2, 9},            // x.sum()
    {"softmax_4096x1024", 2, 2, 9},  // x.softmax(1)
    {"gelu_16M", 1, 1, 5},           // 0.5*x*(1+tanh(0.7978845608*(x+0.044715*x*x*x)))
    {"matmul_64", 2000, 1, 7},       // a.matmul(b), [n,n] x [n,n] floats
    {"matmul_256", 50, 1, 7},
    {"matmul_1024", 1, 1, 5},
    {"matmul_2048", 1, 1, 3},
    {"max_pool2d_16x64x56x56", 2, 1, 7},  // max_pool2d(x, 3, stride 2, padding 1)
    {"sdpa_causal", 1, 1, 5},             // causal attention, q/k/v [8, 8, 1024, 64] floats
    {"conv2d_28", 2, 1, 7},  // conv2d [64,32,h,h] * [64,32,3,3] + bias, padding 1 (h = 28, 14)
    {"conv2d_14", 8, 1, 7},
    {"autograd_1", 20000, 1, 7},  // (x * 2 + 1).sum().backward() on a 1-element x
    {"mlp_step", 5, 1, 7},        // 784-512-512-10 MLP, batch 128: forward, cross_entropy, backward
    {"mlp_step_manual", 5, 1, 7},  // the same step's math written by hand, without autograd
    {"adam_step_mlp", 20, 1, 7},   // Adam(lr 1e-3).step() over the MLP's 6 parameters (670k floats)
    {"mlp_step_adamw", 5, 1, 7},   // mlp_step + AdamW(lr 1e-3).step()
    {"cnn_step", 1, 1, 5},  // Fashion-MNIST CNN, batch 64: forward, cross_entropy, backward, AdamW
};

/// cnn_step: conv 1->32 3x3 pad 1, relu, maxpool 2, conv 32->64 3x3 pad 1, relu, maxpool 2,
/// fc 3136->128, relu, fc 128->10 on [64, 1, 28, 28].
constexpr int64_t kCnnBatch = 64, kCnnC1 = 32, kCnnC2 = 64, kCnnHidden = 128, kCnnOut = 10;

/// MLP workloads: batch and layer widths.
constexpr int64_t kMlpBatch = 128, kMlpIn = 784, kMlpHidden = 512, kMlpOut = 10;

/// The conv2d workloads' spatial sizes h (workload "conv2d_<h>").
constexpr int64_t kConvSizes[] = {28, 14};

/// The matmul workloads' sizes n (workload "matmul_<n>").
constexpr int64_t kMatmulSizes[] = {64, 256, 1024, 2048};

/// sdpa_causal: [B, H, T, d] queries, keys and values.
constexpr int64_t kSdpaB = 8, kSdpaH = 8, kSdpaT = 1024, kSdpaD = 64;

/// Floating-point operations per run of a workload, 0 when not meaningful (non-matmul).
inline double workload_flops(std::string_view name) {
  for (int64_t n : kMatmulSizes)
    if (name == "matmul_" + std::to_string(n)) return 2.0 * double(n) * double(n) * double(n);
  return 0.0;
}

struct Result {
  std::string workload;
  int threads;
  Workload spec;
  double median_s;
  double min_s;
};

/// Whether the BENCH_ONLY environment variable (comma-separated workload names) selects `name`;
/// unset selects everything.
inline bool selected(std::string_view name) {
  const char* only = std::getenv("BENCH_ONLY");
  if (!only || !*only) return true;
  std::string_view list(only);
  while (!list.empty()) {
    size_t comma = list.find(',');
    if (list.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

/// Times `run`; a workload BENCH_ONLY leaves out is not run and has median_s < 0.
template <typename F>
Result time_workload(const Workload& w, int threads, F&& run) {
  using clock = std::chrono::steady_clock;
  if (!selected(w.name)) return {w.name, threads, w, -1, -1};
  for (int i = 0; i < w.warmup; ++i)
    for (int j = 0; j < w.inner; ++j) run();
  std::vector<double> per_op;
  for (int r = 0; r < w.reps; ++r) {
    auto t0 = clock::now();
    for (int j = 0; j < w.inner; ++j) run();
    std::chrono::duration<double> dt = clock::now() - t0;
    per_op.push_back(dt.count() / w.inner);
  }
  std::sort(per_op.begin(), per_op.end());
  return {w.name, threads, w, per_op[per_op.size() / 2], per_op.front()};
}

inline const Workload& workload(std::string_view name) {
  for (const auto& w : kWorkloads)
    if (name == w.name) return w;
  return kWorkloads[0];
}

/// Parses "--threads 1,2 --out path"; returns false on bad arguments.
inline bool parse_args(int argc, char** argv, std::vector<int>& threads, std::string& out) {
  threads = {1, 2};
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string_view key = argv[i];
    if (key == "--out") {
      out = argv[i + 1];
    } else if (key == "--threads") {
      threads.clear();
      for (std::string s = argv[i + 1]; !s.empty();) {
        size_t comma = s.find(',');
        threads.push_back(std::stoi(s.substr(0, comma)));
        s = comma == std::string::npos ? "" : s.substr(comma + 1);
      }
    } else {
      return false;
    }
  }
  return !out.empty() && !threads.empty() && argc % 2 == 1;
}

/// Writes {"impl", "version", "results": [...], "extra": {...}} as JSON; `extra_json` is an object
/// body.
inline bool write_json(const std::string& path, const std::string& impl, const std::string& version,
                       const std::vector<Result>& results, const std::string& extra_json) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(f, "{\"impl\": \"%s\", \"version\": \"%s\",\n \"results\": [\n", impl.c_str(),
               version.c_str());
  std::vector<Result> ran;
  for (const Result& r : results)
    if (r.median_s >= 0) ran.push_back(r);
  for (size_t i = 0; i < ran.size(); ++i) {
    const Result& r = ran[i];
    std::fprintf(f,
                 "  {\"workload\": \"%s\", \"threads\": %d, \"inner\": %d, \"warmup\": %d, "
                 "\"reps\": %d, \"median_s\": %.9g, \"min_s\": %.9g}%s\n",
                 r.workload.c_str(), r.threads, r.spec.inner, r.spec.warmup, r.spec.reps,
                 r.median_s, r.min_s, i + 1 < ran.size() ? "," : "");
  }
  std::fprintf(f, " ],\n \"extra\": {%s}}\n", extra_json.c_str());
  return std::fclose(f) == 0;
}

inline void print_result(const std::string& impl, const Result& r) {
  if (r.median_s < 0) return;
  std::printf("%-9s %-18s threads=%d median %.3f us  min %.3f us", impl.c_str(), r.workload.c_str(),
              r.threads, r.median_s * 1e6, r.min_s * 1e6);
  if (double f = workload_flops(r.workload); f > 0)
    std::printf("  %.1f GFLOP/s", f / r.median_s * 1e-9);
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace bench
