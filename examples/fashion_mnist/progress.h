#pragma once
// Training progress: a live bar on a terminal, one plain line every N steps otherwise.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

class Progress {
 public:
  Progress(int epoch, int epochs, int64_t total_steps, int log_every)
      : epoch_(epoch),
        epochs_(epochs),
        total_(total_steps),
        log_every_(log_every),
        tty_(isatty(fileno(stdout)) != 0),
        start_(std::chrono::steady_clock::now()) {}

  /// After each step: `samples` is the number of examples seen so far this epoch.
  void update(int64_t step, double loss, int64_t samples) {
    double elapsed = seconds();
    double rate = elapsed > 0 ? samples / elapsed : 0;
    double eta = step > 0 ? elapsed / step * (total_ - step) : 0;
    if (tty_) {
      constexpr int kWidth = 30;
      int filled = total_ > 0 ? static_cast<int>(kWidth * step / total_) : 0;
      std::string bar(filled, '#');
      bar.resize(kWidth, '.');
      std::printf("\repoch %d/%d [%s] %lld/%lld loss %.4f %.0f samples/s ETA %s   ", epoch_,
                  epochs_, bar.c_str(), static_cast<long long>(step),
                  static_cast<long long>(total_), loss, rate, clock(eta).c_str());
      std::fflush(stdout);
    } else if (step % log_every_ == 0 || step == total_) {
      std::printf("epoch %d/%d step %lld/%lld loss %.4f %.0f samples/s ETA %s\n", epoch_, epochs_,
                  static_cast<long long>(step), static_cast<long long>(total_), loss, rate,
                  clock(eta).c_str());
      std::fflush(stdout);
    }
  }
  void finish() {
    if (tty_) std::printf("\n");
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  static std::string clock(double s) {
    char buf[32];
    int t = static_cast<int>(s + 0.5);
    std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
    return buf;
  }
  int epoch_, epochs_;
  int64_t total_;
  int log_every_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};
