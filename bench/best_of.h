#pragma once
// Best-of-N wall time of a callable, in milliseconds: the compile benchmarks' timer (their figures
// are minima over repetitions, not bench_common.h's medians).

#include <algorithm>
#include <chrono>

namespace bench {

template <typename F>
double best_ms(F&& f, int reps) {
  using Clock = std::chrono::steady_clock;
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return best;
}

}  // namespace bench
