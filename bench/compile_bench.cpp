// The compile step (docs/compile.md) against eager on the 20-op chain: y = y*1.0001 + 0.5,
// ten times, on 16M floats; one read + one write pass of the same tensor (y.clone() into a reused
// buffer via copy_) is the yardstick. Also: the first compile, the first result in a new process
// whose disk cache is warm, and the per-call overhead of a cache hit on a 1-element tensor.
// Ratios are printed, never asserted. Usage: compile_bench [threads]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/compile.h"

using Clock = std::chrono::steady_clock;

namespace {

brasa::Tensor chain(const brasa::Tensor& x) {
  brasa::Tensor y = x;
  for (int i = 0; i < 10; ++i) y = y * 1.0001 + 0.5;
  return y;
}

template <typename F>
double best_ms(F&& f, int reps) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
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
  auto compiled = brasa::compile(chain);

  auto t0 = Clock::now();
  compiled(x);  // trace (runs the chain eagerly, holding every intermediate until it ends)
  auto t1 = Clock::now();
  compiled(x);  // first replay: passes, codegen, g++ (or the disk cache), dlopen, run
  auto t2 = Clock::now();
  const double trace_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double first_compile_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  const brasa::CompileStats s = brasa::compile_stats();

  const double pass = best_ms([&] { buf.copy_(x); }, 15);
  const double eager = best_ms([&] { chain(x); }, 7);
  const double fused = best_ms([&] { compiled(x); }, 15);

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

  std::string cmd = std::string("'") + argv[0] + "' --first-result";
  double first_result_ms = -1;
  long long disk_hits = 0;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    if (std::fscanf(p, "%lf %lld", &first_result_ms, &disk_hits) != 2) first_result_ms = -1;
    pclose(p);
  }

  std::printf("threads                         %d\n", brasa::get_num_threads());
  std::printf("one read+write pass (16M)       %8.2f ms\n", pass);
  std::printf("eager 20-op chain               %8.2f ms  (%.2fx the pass)\n", eager, eager / pass);
  std::printf(
      "compiled 20-op chain            %8.2f ms  (%.2fx the pass, %.1fx faster than eager)\n",
      fused, fused / pass, eager / fused);
  std::printf("trace (first call, eager)       %8.1f ms\n", trace_ms);
  std::printf("first compile (build + 1 run)   %8.1f ms  (compiler runs %lld, disk hits %lld)\n",
              first_compile_ms, static_cast<long long>(s.compiler_runs),
              static_cast<long long>(s.disk_cache_hits));
  std::printf("new process, warm disk cache    %8.2f ms to the first result (disk hits %lld)\n",
              first_result_ms, disk_hits);
  std::printf("cache hit, 1 element            %8.2f us per call (eager 2 ops: %.2f us)\n", hit_us,
              eager_tiny_us);
  return 0;
}
