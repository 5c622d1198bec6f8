#pragma once
// The learning-rate schedule of char_gpt (and train_torch.py): linear warm-up from 0 to the peak
// over `warmup` steps, then a cosine decay to a tenth of the peak at the last step. A function of
// the step alone, so a resumed run needs no scheduler state. StepTimer: mean step time after a
// few warm-up steps, wall and process CPU time (the CPU time of a step is the steadier figure on
// a loaded machine when the run has one thread).

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numbers>

struct CosineSchedule {
  double peak;
  int64_t warmup, total;
  double operator()(int64_t step) const {
    if (step < warmup) return peak * static_cast<double>(step + 1) / static_cast<double>(warmup);
    const double span = std::max<int64_t>(1, total - warmup);
    const double progress = std::min(1.0, static_cast<double>(step - warmup) / span);
    const double floor = peak / 10;
    return floor + 0.5 * (peak - floor) * (1 + std::cos(std::numbers::pi * progress));
  }
};

class StepTimer {
 public:
  static constexpr int kWarmup = 3;
  void start() {
    begin_ = std::chrono::steady_clock::now();
    cpu_begin_ = cpu_seconds();
  }
  /// `index`: the step's position in this run (the first kWarmup are not counted).
  void stop(int64_t index) {
    if (index < kWarmup) return;
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
    cpu_total_ += cpu_seconds() - cpu_begin_;
    ++count_;
  }
  double mean_ms() const { return count_ ? 1e3 * total_ / static_cast<double>(count_) : 0; }
  /// Process CPU time (user + system, all threads) per step.
  double mean_cpu_ms() const { return count_ ? 1e3 * cpu_total_ / static_cast<double>(count_) : 0; }
  int64_t count() const { return count_; }

 private:
  static double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
  std::chrono::steady_clock::time_point begin_;
  double cpu_begin_ = 0;
  double total_ = 0, cpu_total_ = 0;
  int64_t count_ = 0;
};
