// CPU time of char_gpt's attention (batch 32, 8 heads, T = 128, head dim 32, causal) on one
// thread, Float32 against BFloat16 (the AVX-512 BF16 kernel where the CPU has it: Note [BFloat16
// attention]), forward and backward, with and without dropout; then Float32 at the shape of
// compile_gpt_bench (batch 32, 4 heads, T = 64, head dim 32), with GFLOP/s counted as the dense
// products (forward 2, backward 5 of N L S E multiply-adds; causal attention skips about half).
// Thread CPU time rather than wall time: on a shared machine it does not count the time other
// processes hold the core.
//   build/release/bench/attention_cpu_bench
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Median over 7 calls after one warm-up, milliseconds.
double median_ms(const std::function<void()>& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < 7; ++r) {
    const double t0 = thread_cpu_seconds();
    f();
    t.push_back(thread_cpu_seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return 1e3 * t[t.size() / 2];
}

}  // namespace

int main() {
  set_num_threads(1);
  manual_seed(0);
  std::printf("%-9s %10s %10s %12s %12s  (CPU ms, median of 7)\n", "dtype", "forward", "backward",
              "fwd_dropout", "bwd_dropout");
  for (ScalarType dt : {kFloat, kBFloat16}) {
    auto r = [dt] { return rand({32, 8, 128, 32}).sub(0.5).to(dt); };
    const Tensor q = r(), k = r(), v = r(), go = r();
    double ms[4];
    for (int d = 0; d < 2; ++d) {
      const double p = d ? 0.1 : 0.0;
      auto [out, lse, philox] =
          _scaled_dot_product_attention_forward(q, k, v, {}, p, true, std::nullopt, {});
      ms[d * 2] = median_ms([&] { scaled_dot_product_attention(q, k, v, {}, p, true); });
      ms[d * 2 + 1] = median_ms([&] {
        scaled_dot_product_attention_backward(go, q, k, v, {}, out, lse, philox, p, true, {});
      });
    }
    std::printf("%-9s %10.1f %10.1f %12.1f %12.1f\n", dt == kFloat ? "float32" : "bfloat16", ms[0],
                ms[1], ms[2], ms[3]);
  }
  for (int64_t t : {int64_t(128), int64_t(64)}) {
    const int64_t n = 32, h = t == 128 ? 8 : 4, e = 32;
    auto r = [&] { return rand({n, h, t, e}).sub(0.5); };
    const Tensor q = r(), k = r(), v = r(), go = r();
    auto [out, lse, philox] =
        _scaled_dot_product_attention_forward(q, k, v, {}, 0.0, true, std::nullopt, {});
    const double fwd = median_ms([&] { scaled_dot_product_attention(q, k, v, {}, 0.0, true); });
    const double bwd = median_ms([&] {
      scaled_dot_product_attention_backward(go, q, k, v, {}, out, lse, philox, 0.0, true, {});
    });
    const double flop = 2.0 * double(n * h * t * t * e);  // one dense product
    std::printf(
        "float32 [%lld, %lld, %lld, %lld] causal: forward %.2f ms (%.0f GFLOP/s), "
        "backward %.2f ms (%.0f GFLOP/s)\n",
        static_cast<long long>(n), static_cast<long long>(h), static_cast<long long>(t),
        static_cast<long long>(e), fwd, 2 * flop / fwd * 1e-6, bwd, 5 * flop / bwd * 1e-6);
  }
  return 0;
}
