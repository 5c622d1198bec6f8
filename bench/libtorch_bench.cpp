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

template <class Record>
void run_mlp(Record& record) {
  using bench::kMlpBatch, bench::kMlpIn, bench::kMlpHidden, bench::kMlpOut;
  namespace F = torch::nn::functional;
  torch::Tensor X = uniform({kMlpBatch, kMlpIn});
  torch::Tensor labels = torch::randint(0, kMlpOut, {kMlpBatch}, torch::kLong);
  std::vector<torch::Tensor> params = {
      uniform({kMlpHidden, kMlpIn}) * 0.05,     uniform({kMlpHidden}) * 0.05,
      uniform({kMlpHidden, kMlpHidden}) * 0.05, uniform({kMlpHidden}) * 0.05,
      uniform({kMlpOut, kMlpHidden}) * 0.05,    uniform({kMlpOut}) * 0.05};
  for (auto& p : params) p.requires_grad_(true);
  auto &W1 = params[0], &b1 = params[1], &W2 = params[2], &b2 = params[3], &W3 = params[4],
       &b3 = params[5];
  int threads = torch::get_num_threads();
  record(bench::time_workload(bench::workload("mlp_step"), threads, [&] {
    for (auto& p : params) p.mutable_grad().reset();
    torch::AutoGradMode grad(true);
    torch::Tensor h1 = torch::linear(X, W1, b1).relu();
    torch::Tensor h2 = torch::linear(h1, W2, b2).relu();
    F::cross_entropy(torch::linear(h2, W3, b3), labels).backward();
  }));
  torch::Tensor onehot = torch::one_hot(labels, kMlpOut).to(torch::kFloat);
  record(bench::time_workload(bench::workload("mlp_step_manual"), threads, [&] {
    torch::NoGradGuard no_grad;
    torch::Tensor h1 = torch::linear(X, W1, b1).relu();
    torch::Tensor h2 = torch::linear(h1, W2, b2).relu();
    torch::Tensor g = (torch::linear(h2, W3, b3).softmax(1) - onehot) / double(kMlpBatch);
    torch::Tensor dW3 = g.t().mm(h2), db3 = g.sum(0);
    torch::Tensor d2 = g.mm(W3) * h2.gt(0);
    torch::Tensor dW2 = d2.t().mm(h1), db2 = d2.sum(0);
    torch::Tensor d1 = d2.mm(W2) * h1.gt(0);
    torch::Tensor dW1 = d1.t().mm(X), db1 = d1.sum(0);
  }));
  for (auto& p : params) p.mutable_grad() = uniform(p.sizes().vec()) * 0.01;
  torch::optim::Adam adam(params, torch::optim::AdamOptions(1e-3));
  record(bench::time_workload(bench::workload("adam_step_mlp"), threads, [&] { adam.step(); }));
  torch::optim::AdamW adamw(params, torch::optim::AdamWOptions(1e-3));
  record(bench::time_workload(bench::workload("mlp_step_adamw"), threads, [&] {
    adamw.zero_grad();
    {
      torch::AutoGradMode grad(true);
      torch::Tensor h1 = torch::linear(X, W1, b1).relu();
      torch::Tensor h2 = torch::linear(h1, W2, b2).relu();
      F::cross_entropy(torch::linear(h2, W3, b3), labels).backward();
    }
    adamw.step();
  }));
}

// One Fashion-MNIST CNN training step (bench_common.h kCnn*): forward, backward, AdamW.
template <class Record>
void run_cnn(Record& record) {
  using bench::kCnnBatch, bench::kCnnC1, bench::kCnnC2, bench::kCnnHidden, bench::kCnnOut;
  namespace F = torch::nn::functional;
  torch::Tensor X = uniform({kCnnBatch, 1, 28, 28});
  torch::Tensor labels = torch::randint(0, kCnnOut, {kCnnBatch}, torch::kLong);
  const std::vector<std::vector<int64_t>> shapes = {
      {kCnnC1, 1, 3, 3},         {kCnnC1},     {kCnnC2, kCnnC1, 3, 3}, {kCnnC2},
      {kCnnHidden, kCnnC2 * 49}, {kCnnHidden}, {kCnnOut, kCnnHidden},  {kCnnOut}};
  std::vector<torch::Tensor> params;
  for (const auto& s : shapes) params.push_back((uniform(s) * 0.05).requires_grad_(true));
  torch::optim::AdamW opt(params, torch::optim::AdamWOptions(1e-3));
  record(bench::time_workload(bench::workload("cnn_step"), torch::get_num_threads(), [&] {
    opt.zero_grad();
    {
      torch::AutoGradMode grad(true);
      torch::Tensor h = torch::max_pool2d(torch::conv2d(X, params[0], params[1], 1, 1).relu(), 2);
      h = torch::max_pool2d(torch::conv2d(h, params[2], params[3], 1, 1).relu(), 2);
      h = torch::linear(torch::linear(h.flatten(1), params[4], params[5]).relu(), params[6],
                        params[7]);
      F::cross_entropy(h, labels).backward();
    }
    opt.step();
  }));
}

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
  {
    torch::Tensor xg = uniform({1}).requires_grad_(true);
    record(bench::time_workload(workload("autograd_1"), threads, [&] {
      torch::AutoGradMode grad(true);  // main() runs under no-grad
      (xg * 2 + 1).sum().backward();
    }));
  }
  run_mlp(record);
  run_cnn(record);
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
