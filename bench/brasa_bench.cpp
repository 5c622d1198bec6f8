// brasa side of the side-by-side benchmark (see bench_common.h for the method, scripts/bench.sh to
// run).
#include <brasa/brasa.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"

namespace {

brasa::Tensor uniform(std::vector<int64_t> sizes, unsigned seed) {
  brasa::Tensor t = brasa::empty(sizes);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = dist(gen);
  return t;
}

// One training step of a 784-512-512-10 MLP with autograd, and the same math by hand (the
// difference is autograd's own cost: graph building and the engine).
template <class Record>
void run_mlp(Record& record) {
  using bench::kMlpBatch, bench::kMlpIn, bench::kMlpHidden, bench::kMlpOut;
  namespace F = brasa::nn::functional;
  brasa::Tensor X = uniform({kMlpBatch, kMlpIn}, 20);
  brasa::Tensor labels =
      brasa::randint(0, kMlpOut, {kMlpBatch}, brasa::TensorOptions(brasa::kLong));
  brasa::Tensor W1 = uniform({kMlpHidden, kMlpIn}, 21).mul_(0.05).requires_grad_(true);
  brasa::Tensor b1 = uniform({kMlpHidden}, 22).mul_(0.05).requires_grad_(true);
  brasa::Tensor W2 = uniform({kMlpHidden, kMlpHidden}, 23).mul_(0.05).requires_grad_(true);
  brasa::Tensor b2 = uniform({kMlpHidden}, 24).mul_(0.05).requires_grad_(true);
  brasa::Tensor W3 = uniform({kMlpOut, kMlpHidden}, 25).mul_(0.05).requires_grad_(true);
  brasa::Tensor b3 = uniform({kMlpOut}, 26).mul_(0.05).requires_grad_(true);
  brasa::Tensor params[] = {W1, b1, W2, b2, W3, b3};
  record(bench::time_workload(bench::workload("mlp_step"), brasa::get_num_threads(), [&] {
    for (auto& p : params) p.mutable_grad().reset();
    brasa::Tensor h1 = brasa::linear(X, W1, b1).relu();
    brasa::Tensor h2 = brasa::linear(h1, W2, b2).relu();
    brasa::Tensor loss = F::cross_entropy(brasa::linear(h2, W3, b3), labels);
    loss.backward();
  }));
  brasa::Tensor onehot = brasa::one_hot(labels, kMlpOut).to(brasa::kFloat);
  record(bench::time_workload(bench::workload("mlp_step_manual"), brasa::get_num_threads(), [&] {
    brasa::NoGradGuard no_grad;
    brasa::Tensor h1 = brasa::linear(X, W1, b1).relu();
    brasa::Tensor h2 = brasa::linear(h1, W2, b2).relu();
    brasa::Tensor logits = brasa::linear(h2, W3, b3);
    brasa::Tensor g = (logits.softmax(1) - onehot) / double(kMlpBatch);
    brasa::Tensor dW3 = g.t().mm(h2), db3 = g.sum(0);
    brasa::Tensor d2 = g.mm(W3) * h2.gt(0);
    brasa::Tensor dW2 = d2.t().mm(h1), db2 = d2.sum(0);
    brasa::Tensor d1 = d2.mm(W2) * h1.gt(0);
    brasa::Tensor dW1 = d1.t().mm(X), db1 = d1.sum(0);
  }));
  unsigned seed = 30;
  for (auto& p : params) p.mutable_grad() = uniform(p.sizes().vec(), seed++).mul_(0.01);
  brasa::optim::Adam adam({W1, b1, W2, b2, W3, b3}, brasa::optim::AdamOptions(1e-3));
  record(bench::time_workload(bench::workload("adam_step_mlp"), brasa::get_num_threads(),
                              [&] { adam.step(); }));
  brasa::optim::AdamW adamw({W1, b1, W2, b2, W3, b3}, brasa::optim::AdamWOptions(1e-3));
  record(bench::time_workload(bench::workload("mlp_step_adamw"), brasa::get_num_threads(), [&] {
    adamw.zero_grad(/*set_to_none=*/true);
    brasa::Tensor h1 = brasa::linear(X, W1, b1).relu();
    brasa::Tensor h2 = brasa::linear(h1, W2, b2).relu();
    F::cross_entropy(brasa::linear(h2, W3, b3), labels).backward();
    adamw.step();
  }));
}

// One Fashion-MNIST CNN training step (bench_common.h kCnn*): forward, backward, AdamW.
template <class Record>
void run_cnn(Record& record) {
  using bench::kCnnBatch, bench::kCnnC1, bench::kCnnC2, bench::kCnnHidden, bench::kCnnOut;
  namespace F = brasa::nn::functional;
  brasa::Tensor X = uniform({kCnnBatch, 1, 28, 28}, 40);
  brasa::Tensor labels =
      brasa::randint(0, kCnnOut, {kCnnBatch}, brasa::TensorOptions(brasa::kLong));
  const std::vector<std::vector<int64_t>> shapes = {
      {kCnnC1, 1, 3, 3},         {kCnnC1},     {kCnnC2, kCnnC1, 3, 3}, {kCnnC2},
      {kCnnHidden, kCnnC2 * 49}, {kCnnHidden}, {kCnnOut, kCnnHidden},  {kCnnOut}};
  std::vector<brasa::Tensor> params;
  unsigned seed = 41;
  for (const auto& s : shapes) params.push_back(uniform(s, seed++).mul_(0.05).requires_grad_(true));
  brasa::optim::AdamW opt(params, brasa::optim::AdamWOptions(1e-3));
  record(bench::time_workload(bench::workload("cnn_step"), brasa::get_num_threads(), [&] {
    opt.zero_grad(/*set_to_none=*/true);
    brasa::Tensor h = brasa::max_pool2d(brasa::conv2d(X, params[0], params[1], 1, 1).relu(), 2);
    h = brasa::max_pool2d(brasa::conv2d(h, params[2], params[3], 1, 1).relu(), 2);
    h = brasa::linear(brasa::linear(h.flatten(1), params[4], params[5]).relu(), params[6],
                      params[7]);
    F::cross_entropy(h, labels).backward();
    opt.step();
  }));
}

std::vector<bench::Result> run_all(int threads) {
  using bench::workload;
  brasa::set_num_threads(threads);
  std::vector<bench::Result> out;
  auto record = [&](bench::Result r) {
    bench::print_result("brasa", r);
    out.push_back(std::move(r));
  };
  brasa::Tensor a1 = uniform({1}, 1), b1 = uniform({1}, 2);
  record(bench::time_workload(workload("add_1"), threads, [&] { brasa::Tensor z = a1 + b1; }));

  brasa::Tensor x = uniform({bench::kBig}, 3), y = uniform({bench::kBig}, 4);
  record(bench::time_workload(workload("add_16M"), threads, [&] { brasa::Tensor z = x + y; }));
  record(bench::time_workload(workload("chain_16M"), threads, [&] {
    brasa::Tensor z = x;
    for (int i = 0; i < bench::kChainPairs; ++i) z = z * bench::kChainMul + bench::kChainAdd;
  }));
  record(bench::time_workload(workload("sum_16M"), threads, [&] { brasa::Tensor s = x.sum(); }));
  brasa::Tensor m = uniform({bench::kRows, bench::kCols}, 5);
  record(bench::time_workload(workload("softmax_4096x1024"), threads,
                              [&] { brasa::Tensor s = m.softmax(1); }));
  record(bench::time_workload(workload("gelu_16M"), threads, [&] {
    brasa::Tensor g = 0.5 * x * (1 + (0.7978845608 * (x + 0.044715 * x * x * x)).tanh());
  }));
  for (int64_t n : bench::kMatmulSizes) {
    brasa::Tensor a = uniform({n, n}, 6), b = uniform({n, n}, 7);
    record(bench::time_workload(workload("matmul_" + std::to_string(n)), threads,
                                [&] { brasa::Tensor c = a.matmul(b); }));
  }
  brasa::Tensor img = uniform({16, 64, 56, 56}, 8);
  record(bench::time_workload(workload("max_pool2d_16x64x56x56"), threads, [&] {
    brasa::Tensor p = brasa::max_pool2d(img, {3, 3}, {2, 2}, 1);
  }));
  {
    using bench::kSdpaB, bench::kSdpaH, bench::kSdpaT, bench::kSdpaD;
    brasa::Tensor q = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD}, 8);
    brasa::Tensor k = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD}, 9);
    brasa::Tensor v = uniform({kSdpaB, kSdpaH, kSdpaT, kSdpaD}, 10);
    if (bench::selected("sdpa_causal")) {
      const int64_t before = brasa::memory_stats().allocated_bytes;
      brasa::reset_peak_memory_stats();
      brasa::Tensor o = brasa::scaled_dot_product_attention(q, k, v, {}, 0.0, true);
      const int64_t extra =
          brasa::memory_stats().peak_allocated_bytes - before - int64_t(o.nbytes());
      std::printf("brasa     sdpa_causal peak extra memory %.3f MiB (scores matrix: %.0f MiB)\n",
                  double(extra) / (1 << 20),
                  double(kSdpaB * kSdpaH * kSdpaT * kSdpaT * 4) / (1 << 20));
    }
    record(bench::time_workload(workload("sdpa_causal"), threads, [&] {
      brasa::Tensor r = brasa::scaled_dot_product_attention(q, k, v, {}, 0.0, true);
    }));
  }
  for (int64_t h : bench::kConvSizes) {
    brasa::Tensor in = uniform({64, 32, h, h}, 8), w = uniform({64, 32, 3, 3}, 9);
    brasa::Tensor b = uniform({64}, 10);
    record(bench::time_workload(workload("conv2d_" + std::to_string(h)), threads,
                                [&] { brasa::Tensor c = brasa::conv2d(in, w, b, 1, 1); }));
  }
  {
    brasa::Tensor xg = uniform({1}, 11).requires_grad_(true);
    record(bench::time_workload(workload("autograd_1"), threads,
                                [&] { (xg * 2 + 1).sum().backward(); }));
  }
  run_mlp(record);
  run_cnn(record);
  return out;
}

std::string memory_stats_json() {
  brasa::MemoryStats s = brasa::memory_stats();
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "\"memory_stats\": {\"allocated_bytes\": %lld, \"reserved_bytes\": %lld, "
                "\"peak_allocated_bytes\": %lld, \"num_allocs\": %lld, \"num_frees\": %lld, "
                "\"num_cache_hits\": %lld, \"num_system_allocs\": %lld}",
                (long long)s.allocated_bytes, (long long)s.reserved_bytes,
                (long long)s.peak_allocated_bytes, (long long)s.num_allocs, (long long)s.num_frees,
                (long long)s.num_cache_hits, (long long)s.num_system_allocs);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> threads;
  std::string out_path;
  if (!bench::parse_args(argc, argv, threads, out_path)) {
    std::fprintf(stderr, "usage: %s --out results.json [--threads 1,2]\n", argv[0]);
    return 2;
  }
  std::vector<bench::Result> results;
  for (int t : threads)
    for (auto& r : run_all(t)) results.push_back(std::move(r));
  if (!bench::write_json(out_path, "brasa", BRASA_BENCH_VERSION, results, memory_stats_json())) {
    std::fprintf(stderr, "brasa_bench: cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}
