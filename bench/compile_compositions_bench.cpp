// GELU, softmax and LayerNorm written as compositions of ops, and an MLP training step: eager
// brasa against brasa::compile, and (with --torch PYTHON, a Python with PyTorch 2.x) the same
// compositions eager and under torch.compile, side by side in one run (bench/torch_compile_bench.py
// measures the PyTorch columns). docs/benchmarks.md, "Compile: compositions". Times are the best of
// interleaved rounds. Usage: compile_compositions_bench [threads] [--torch PYTHON]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "best_of.h"
#include "brasa/brasa.h"
#include "brasa/compile.h"

using Clock = std::chrono::steady_clock;
using brasa::Tensor;

namespace {

using bench::best_ms;

Tensor gelu_c(const Tensor& x) { return x * 0.5 * ((x * 0.7071067811865476).erf() + 1); }
Tensor softmax_c(const Tensor& x) {
  Tensor e = (x - x.amax({-1}, true)).exp();
  return e / e.sum({-1}, true);
}
Tensor layer_norm_c(const Tensor& x, const Tensor& w, const Tensor& b) {
  Tensor xc = x - x.mean({-1}, true);
  return xc * ((xc * xc).mean({-1}, true) + 1e-5).rsqrt() * w + b;
}

// The MLP step: 784 -> 512 -> 512 -> 10 with GELU and LayerNorm compositions, F::cross_entropy
// against class indices y (one op, captured: Note [Cross-entropy fast path]).
struct Mlp {
  Tensor w1, b1, g1, w2, b2, w3, b3;
  Tensor loss(const Tensor& x, const Tensor& y, const Tensor& w1_, const Tensor& b1_,
              const Tensor& g1_, const Tensor& w2_, const Tensor& b2_, const Tensor& w3_,
              const Tensor& b3_) const {
    Tensor h = layer_norm_c(gelu_c(x.matmul(w1_) + b1_), g1_, b1_ * 0.0);
    h = gelu_c(h.matmul(w2_) + b2_);
    return brasa::nn::functional::cross_entropy(h.matmul(w3_) + b3_, y);
  }
};

constexpr const char* kSleef = "/usr/lib/x86_64-linux-gnu/libsleef.so.3";

std::map<std::string, std::pair<double, double>> torch_figures(const std::string& python,
                                                               int threads, std::string* version) {
  std::map<std::string, std::pair<double, double>> out;
  // glibc keeps 16 MiB blocks on its heap (brasa's caching allocator does the same), one
  // inductor compile thread, and SLEEF preloaded: the PyPI wheel's inductor finds no vector ISA
  // here otherwise (its check library needs Sleef_expf16_u10, which libtorch_cpu does not export).
  // A fresh inductor cache: one filled without the vector ISA would keep serving scalar code.
  std::string env =
      "env MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=17179869184 "
      "TORCHINDUCTOR_COMPILE_THREADS=1 TORCHINDUCTOR_CACHE_DIR=/tmp/brasa_torchinductor_" +
      std::to_string(::getpid()) + " ";
  if (FILE* f = std::fopen(kSleef, "r")) {
    std::fclose(f);
    env += std::string("LD_PRELOAD=") + kSleef + " ";
  }
  const std::string cmd = env + "'" + python + "' " + BRASA_TORCH_BENCH_SCRIPT + " " +
                          std::to_string(threads) + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char name[64], a[64];
  double e, c;
  if (std::fscanf(p, "%63s %63s", name, a) == 2) *version = a;  // "torch 2.x.y"
  while (std::fscanf(p, "%63s %lf %lf", name, &e, &c) == 3) out[name] = {e, c};
  pclose(p);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string python;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--torch" && i + 1 < argc)
      python = argv[++i];
    else
      brasa::set_num_threads(std::atoi(argv[i]));
  }
  const int threads = brasa::get_num_threads();
  brasa::manual_seed(0);
  // 16 MiB operands: below glibc's largest mmap threshold (32 MiB), so PyTorch's outputs reuse
  // freed heap memory as brasa's caching allocator does (docs/benchmarks.md).
  Tensor big = brasa::randn({1 << 22});      // GELU: 4M floats
  Tensor rows = brasa::randn({4096, 1024});  // softmax, LayerNorm: 4096 rows of 1024
  Tensor w = brasa::randn({1024}), b = brasa::randn({1024});
  auto cg = brasa::compile(gelu_c);
  auto cs = brasa::compile(softmax_c);
  auto cl = brasa::compile(layer_norm_c);
  cg(big), cs(rows), cl(rows, w, b);  // trace + build
  const bool close = brasa::allclose(cg(big), gelu_c(big), 1e-5, 1e-6) &&
                     brasa::allclose(cs(rows), softmax_c(rows), 1e-5, 1e-7) &&
                     brasa::allclose(cl(rows, w, b), layer_norm_c(rows, w, b), 1e-5, 1e-5);
  double eg = 1e300, fg = 1e300, es = 1e300, fs = 1e300, el = 1e300, fl = 1e300;
  for (int round = 0; round < 5; ++round) {
    eg = std::min(eg, best_ms([&] { gelu_c(big); }, 1));
    fg = std::min(fg, best_ms([&] { cg(big); }, 3));
    es = std::min(es, best_ms([&] { softmax_c(rows); }, 1));
    fs = std::min(fs, best_ms([&] { cs(rows); }, 3));
    el = std::min(el, best_ms([&] { layer_norm_c(rows, w, b); }, 1));
    fl = std::min(fl, best_ms([&] { cl(rows, w, b); }, 3));
  }

  // MLP training step: loss, backward, SGD update (in place, under no_grad), batch 256.
  Mlp m;
  auto param = [](std::vector<int64_t> s, double scale) {
    return (brasa::randn(s) * scale).requires_grad_();
  };
  m.w1 = param({784, 512}, 0.03), m.b1 = param({512}, 0.01), m.g1 = param({512}, 1.0);
  m.w2 = param({512, 512}, 0.04), m.b2 = param({512}, 0.01);
  m.w3 = param({512, 10}, 0.04), m.b3 = param({10}, 0.01);
  std::vector<Tensor> params = {m.w1, m.b1, m.g1, m.w2, m.b2, m.w3, m.b3};
  Tensor x = brasa::randn({256, 784});
  Tensor y = brasa::randint(0, 10, {256});
  auto loss_fn = [&m](const Tensor& x_, const Tensor& y_, const Tensor& a, const Tensor& b_,
                      const Tensor& c, const Tensor& d, const Tensor& e, const Tensor& f,
                      const Tensor& g) { return m.loss(x_, y_, a, b_, c, d, e, f, g); };
  auto compiled_loss = brasa::compile(loss_fn);
  auto step = [&](bool compiled) {
    for (Tensor& p : params) p.mutable_grad().reset();
    Tensor l = compiled ? compiled_loss(x, y, m.w1, m.b1, m.g1, m.w2, m.b2, m.w3, m.b3)
                        : loss_fn(x, y, m.w1, m.b1, m.g1, m.w2, m.b2, m.w3, m.b3);
    l.backward();
    brasa::NoGradGuard no_grad;
    for (Tensor& p : params) p.sub_(p.grad() * 1e-3);
  };
  step(true), step(true);
  double em = 1e300, fm = 1e300;
  for (int round = 0; round < 5; ++round) {
    em = std::min(em, best_ms([&] { step(false); }, 2));
    fm = std::min(fm, best_ms([&] { step(true); }, 2));
  }
  const brasa::CompileStats s = brasa::compile_stats();

  std::string version = "(no --torch)";
  auto torch = python.empty() ? decltype(torch_figures("", 0, nullptr)){}
                              : torch_figures(python, threads, &version);
  auto col = [&](const char* k, bool compiled) {
    auto it = torch.find(k);
    static char buf[32];
    if (it == torch.end()) return std::string("-");
    std::snprintf(buf, sizeof buf, "%.2f", compiled ? it->second.second : it->second.first);
    return std::string(buf);
  };
  std::printf("threads %d; compiled allclose to eager: %s; PyTorch: %s\n", threads,
              close ? "yes" : "NO", version.c_str());
  std::printf("%-28s %10s %10s %10s %14s\n", "ms", "eager", "compiled", "torch eager",
              "torch.compile");
  std::printf("%-28s %10.2f %10.2f %10s %14s\n", "GELU (erf), 4M", eg, fg, col("gelu", 0).c_str(),
              col("gelu", 1).c_str());
  std::printf("%-28s %10.2f %10.2f %10s %14s\n", "softmax, 4096x1024", es, fs,
              col("softmax", 0).c_str(), col("softmax", 1).c_str());
  std::printf("%-28s %10.2f %10.2f %10s %14s\n", "LayerNorm, 4096x1024", el, fl,
              col("layer_norm", 0).c_str(), col("layer_norm", 1).c_str());
  std::printf("%-28s %10.2f %10.2f  (compiled/eager %.2f)\n", "MLP step, batch 256", em, fm,
              fm / em);
  std::printf("backward graphs %lld, forward values kept %lld (eager's nodes: %lld)\n",
              static_cast<long long>(s.backward_graphs),
              static_cast<long long>(s.saved_for_backward),
              static_cast<long long>(s.saved_by_eager));
  return 0;
}
