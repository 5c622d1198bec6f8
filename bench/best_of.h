#pragma once
// Best-of-N wall time of a callable, in milliseconds: the compile benchmarks' timer (their figures
// are minima over repetitions, not bench_common.h's medians). BENCH_CPU_TIME=1 takes the process's
// CPU time instead: on a shared machine it leaves out the time other processes hold the core (use
// it with one thread, where CPU time is the work's time).

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace bench {

inline double now_ms() {
  static const bool cpu = [] {
    const char* v = std::getenv("BENCH_CPU_TIME");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  if (!cpu)
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * double(t.tv_sec) + 1e-6 * double(t.tv_nsec);
}

template <typename F>
double best_ms(F&& f, int reps) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_ms();
    f();
    best = std::min(best, now_ms() - t0);
  }
  return best;
}

/// Best of 9 runs (after one warm-up) of f in the calling thread's CPU time, in microseconds: for
/// kernels run on one thread on a machine shared with builds, which preempt it often (what other
/// processes do to the caches still shows).
template <typename F>
double best_thread_us(F&& f) {
  auto thread_us = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return 1e6 * double(t.tv_sec) + 1e-3 * double(t.tv_nsec);
  };
  f();
  double best = 1e300;
  for (int r = 0; r < 9; ++r) {
    const double t0 = thread_us();
    f();
    best = std::min(best, thread_us() - t0);
  }
  return best;
}

}  // namespace bench
