// libtorch side of the side-by-side benchmark: the same workloads and timing as brasa_bench.cpp.
// Built by scripts/bench.sh with g++ against Debian's libtorch-dev (not part of the CMake build).
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

torch::Tensor uniform(std::vector<int64_t> sizes) { return torch::rand(sizes) * 2 - 1; }

std::vector<bench::Result> run_all(int threads) {
  using bench::workload;
  torch::set_num_threads(threads);
  std::vector<bench::Result> out;
  auto record = [&](bench::Result r) {
    bench::print_result("libtorch", r);
    out.push_back(std::move(r));
  };
  torch::Tensor a1 = uniform({1}), b1 = uniform({1});
  record(bench::time_workload(workload("add_1"), threads, [&] { torch::Tensor z = a1 + b1; }));

  torch::Tensor x = uniform({bench::kBig}), y = uniform({bench::kBig});
  record(bench::time_workload(workload("add_16M"), threads, [&] { torch::Tensor z = x + y; }));
  record(bench::time_workload(workload("chain_16M"), threads, [&] {
    torch::Tensor z = x;
    for (int i = 0; i < bench::kChainPairs; ++i) z = z * bench::kChainMul + bench::kChainAdd;
  }));
  record(bench::time_workload(workload("sum_16M"), threads, [&] { torch::Tensor s = x.sum(); }));
  torch::Tensor m = uniform({bench::kRows, bench::kCols});
  record(bench::time_workload(workload("softmax_4096x1024"), threads,
                              [&] { torch::Tensor s = m.softmax(1); }));
  record(bench::time_workload(workload("gelu_16M"), threads, [&] {
    torch::Tensor g = 0.5 * x * (1 + (0.7978845608 * (x + 0.044715 * x * x * x)).tanh());
  }));
  for (int64_t n : bench::kMatmulSizes) {
    torch::Tensor a = uniform({n, n}), b = uniform({n, n});
    record(bench::time_workload(workload("matmul_" + std::to_string(n)), threads,
                                [&] { torch::Tensor c = a.matmul(b); }));
  }
  torch::Tensor img = uniform({16, 64, 56, 56});
  record(bench::time_workload(workload("max_pool2d_16x64x56x56"), threads, [&] {
    torch::Tensor p = torch::max_pool2d(img, {3, 3}, {2, 2}, 1);
  }));
  {  // libtorch 1.13 has no scaled_dot_product_attention: its defining formula
    using bench::kSdpaB, bench::kSdpaH, bench::kSdpaT, bench::kSdpaD;
    torch::Tensor q = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD});
    torch::Tensor k = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD});
    torch::Tensor v = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD});
    torch::Tensor mask =
        torch::full({kSdpaT, kSdpaT}, -INFINITY).triu(1);  // 0 on and below the diagonal
    record(bench::time_workload(workload("sdpa_causal"), threads, [&] {
      torch::Tensor s = q.matmul(k.transpose(-2, -1)) / std::sqrt(double(kSdpaD)) + mask;
      torch::Tensor r = s.softmax(-1).matmul(v);
    }));
  }
  for (int64_t h : bench::kConvSizes) {
    torch::Tensor in = uniform({64, 32, h, h}), w = uniform({64, 32, 3, 3}), b = uniform({64});
    record(bench::time_workload(workload("conv2d_" + std::to_string(h)), threads,
                                [&] { torch::Tensor c = torch::conv2d(in, w, b, 1, 1); }));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> threads;
  std::string out_path;
  if (!bench::parse_args(argc, argv, threads, out_path)) {
    std::fprintf(stderr, "usage: %s --out results.json [--threads 1,2]\n", argv[0]);
    return 2;
  }
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  std::vector<bench::Result> results;
  for (int t : threads)
    for (auto& r : run_all(t)) results.push_back(std::move(r));
  std::string version = std::to_string(TORCH_VERSION_MAJOR) + "." +
                        std::to_string(TORCH_VERSION_MINOR) + "." +
                        std::to_string(TORCH_VERSION_PATCH);
  if (!bench::write_json(out_path, "libtorch", version, results, "")) {
    std::fprintf(stderr, "libtorch_bench: cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}
