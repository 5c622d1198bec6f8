// The compile step (docs/compile.md) against eager on the 20-op chain: y = y*1.0001 + 0.5,
// ten times, on 16M floats; one read + one write pass of the same tensor (y.clone() into a reused
// buffer via copy_) is the yardstick. Also: the first compile, the first result in a new process
// whose disk cache is warm, and the per-call overhead of a cache hit on a 1-element tensor.
// Ratios are printed, never asserted. Usage: compile_bench [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "best_of.h"
#include "brasa/brasa.h"
#include "brasa/compile.h"

using Clock = std::chrono::steady_clock;

namespace {

using bench::best_ms;

brasa::Tensor chain(const brasa::Tensor& x) {
  brasa::Tensor y = x;
  for (int i = 0; i < 10; ++i) y = y * 1.0001 + 0.5;
  return y;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--first-result") {  // a fresh process, warm disk cache
    brasa::Tensor x = brasa::ones({1 << 10});
    auto t0 = Clock::now();
    auto f = brasa::compile(chain);
    brasa::Tensor y = f(x);  // traces; the kernels come from the disk cache
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::printf("%.2f %lld\n", ms, static_cast<long long>(brasa::compile_stats().disk_cache_hits));
    return 0;
  }
  if (argc > 1) brasa::set_num_threads(std::atoi(argv[1]));
  const int64_t n = int64_t(1) << 24;
  brasa::Tensor x = brasa::rand({n});
  brasa::Tensor buf = brasa::empty({n});
  // The first compile (trace + passes + codegen + g++ + dlopen) on a small input, so that the
  // eager run inside the trace does not count; a cold cache makes it a compiler run (pass an
  // empty BRASA_COMPILE_CACHE directory). The 16M-element calls then reuse the same kernels.
  auto compiled = brasa::compile(chain);
  brasa::Tensor small = brasa::rand({1024});
  auto t0 = Clock::now();
  compiled(small);
  const double first_compile_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const brasa::CompileStats s = brasa::compile_stats();
  compiled(x);  // a new size: one more trace, no compiler run (Dynamic::Automatic)
  compiled(x);
  const brasa::CompileStats s2 = brasa::compile_stats();
  const brasa::Tensor chain_eager = chain(x);
  const bool same = brasa::equal(compiled(x), chain_eager);
  // One read + one write pass of 64 MiB, the bandwidth yardstick.
  auto copy_pass = [&] {
    const float* src = x.data_ptr<float>();
    float* dst = buf.data_ptr<float>();
    brasa::parallel_for(0, n, int64_t(1) << 16, [&](int64_t b, int64_t e) {
      std::memcpy(dst + b, src + b, sizeof(float) * (e - b));
    });
  };

  // Interleaved rounds, best of each: the machine's bandwidth drifts between runs (shared VM).
  // Fused eager (Note [Fused eager]): the plain eager chain with the mode on; the flush computes
  // the result (held), as any observation of it would.
  const bool same_fused_eager = [&] {
    brasa::FusedEagerGuard on;
    brasa::Tensor r = chain(x);
    brasa::fused_eager_flush();
    return brasa::equal(r, chain_eager);
  }();
  auto fused_eager_chain = [&] {
    brasa::FusedEagerGuard on;
    brasa::Tensor r = chain(x);
    brasa::fused_eager_flush();
  };
  double pass = 1e300, eager = 1e300, fused = 1e300, fused_eager = 1e300;
  for (int round = 0; round < 9; ++round) {
    pass = std::min(pass, best_ms(copy_pass, 3));
    eager = std::min(eager, best_ms([&] { chain(x); }, 1));
    fused = std::min(fused, best_ms([&] { compiled(x); }, 3));
    fused_eager = std::min(fused_eager, best_ms(fused_eager_chain, 3));
  }

  // A pointwise prologue fused into the consumer softmax over rows of 1024.
  auto scaled_softmax = [](const brasa::Tensor& t) { return (t * 0.5 + 0.1).softmax(-1); };
  auto compiled_softmax = brasa::compile(scaled_softmax);
  brasa::Tensor rows = x.view({n / 1024, 1024});
  compiled_softmax(rows);
  double eager_sm = 1e300, fused_sm = 1e300;
  for (int round = 0; round < 5; ++round) {
    eager_sm = std::min(eager_sm, best_ms([&] { scaled_softmax(rows); }, 1));
    fused_sm = std::min(fused_sm, best_ms([&] { compiled_softmax(rows); }, 3));
  }
  const bool close_sm = brasa::allclose(compiled_softmax(rows), scaled_softmax(rows), 1e-5, 1e-7);

  brasa::Tensor one = brasa::ones({1});
  auto tiny = brasa::compile([](const brasa::Tensor& t) { return t * 1.0001 + 0.5; });
  tiny(one);
  tiny(one);
  const int calls = 20000;
  const double hit_us = best_ms(
                            [&] {
                              for (int i = 0; i < calls; ++i) tiny(one);
                            },
                            5) *
                        1e3 / calls;
  const double eager_tiny_us = best_ms(
                                   [&] {
                                     for (int i = 0; i < calls; ++i) one * 1.0001 + 0.5;
                                   },
                                   5) *
                               1e3 / calls;

  // Fused eager's cost per flush: the same 2 ops deferred, then computed (fused_eager_flush).
  const double fused_eager_tiny_us = best_ms(
                                         [&] {
                                           brasa::FusedEagerGuard on;
                                           for (int i = 0; i < calls; ++i) {
                                             brasa::Tensor r = one * 1.0001 + 0.5;
                                             brasa::fused_eager_flush();
                                           }
                                         },
                                         5) *
                                     1e3 / calls;

  std::string cmd = std::string("'") + argv[0] + "' --first-result";
  double first_result_ms = -1;
  long long disk_hits = 0;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    if (std::fscanf(p, "%lf %lld", &first_result_ms, &disk_hits) != 2) first_result_ms = -1;
    pclose(p);
  }

  std::printf("threads                         %d\n", brasa::get_num_threads());
  std::printf("compiled == eager (bitwise)     %s\n", same ? "yes" : "NO");
  std::printf("one read+write pass (16M)       %8.2f ms\n", pass);
  std::printf("eager 20-op chain               %8.2f ms  (%.2fx the pass)\n", eager, eager / pass);
  std::printf(
      "compiled 20-op chain            %8.2f ms  (%.2fx the pass, %.1fx faster than eager)\n",
      fused, fused / pass, eager / fused);
  std::printf(
      "fused eager 20-op chain         %8.2f ms  (%.2fx the pass, %.1fx faster than eager; %s)\n",
      fused_eager, fused_eager / pass, eager / fused_eager,
      same_fused_eager ? "bitwise eager's" : "DIFFERS");
  std::printf("eager (x*0.5+0.1).softmax(-1)   %8.2f ms  (%.2fx the pass), 16384x1024\n", eager_sm,
              eager_sm / pass);
  std::printf("compiled, fused into softmax    %8.2f ms  (%.2fx the pass, %.1fx faster; %s)\n",
              fused_sm, fused_sm / pass, eager_sm / fused_sm, close_sm ? "allclose" : "DIFFERS");
  std::printf("first compile (1024 elements)   %8.1f ms  (compiler runs %lld, disk hits %lld)\n",
              first_compile_ms, static_cast<long long>(s.compiler_runs),
              static_cast<long long>(s.disk_cache_hits));
  std::printf("then 16M elements               %lld more compiler runs, %lld more traces\n",
              static_cast<long long>(s2.compiler_runs - s.compiler_runs),
              static_cast<long long>(s2.traces - s.traces));
  std::printf("new process, warm disk cache    %8.2f ms to the first result (disk hits %lld)\n",
              first_result_ms, disk_hits);
  std::printf("cache hit, 1 element            %8.2f us per call (eager 2 ops: %.2f us)\n", hit_us,
              eager_tiny_us);
  std::printf("fused eager, 1 element          %8.2f us per 2 ops + flush\n", fused_eager_tiny_us);
  return 0;
}
