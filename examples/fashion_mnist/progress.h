#pragma once
// Training progress: a live bar on a terminal, one plain line every N steps otherwise. Shared by
// the examples: fashion_mnist counts epochs and samples/s, char_gpt steps and tokens/s.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

class Progress {
 public:
  Progress(int epoch, int epochs, int64_t total_steps, int log_every)
      : Progress("epoch " + std::to_string(epoch) + "/" + std::to_string(epochs), total_steps,
                 log_every, "samples/s") {}
  /// `title` starts each line; `unit` names the rate of update's count; a run resumed at
  /// `first_step` estimates its ETA from the steps it has made itself.
  Progress(std::string title, int64_t total_steps, int log_every, std::string unit,
           int64_t first_step = 0)
      : title_(std::move(title)),
        unit_(std::move(unit)),
        total_(total_steps),
        first_step_(first_step),
        log_every_(log_every),
        tty_(isatty(fileno(stdout)) != 0),
        start_(std::chrono::steady_clock::now()) {}

  /// After each step: `count` is what the rate counts (examples, tokens) since the start.
  void update(int64_t step, double loss, int64_t count) {
    double elapsed = seconds();
    double rate = elapsed > 0 ? count / elapsed : 0;
    double eta = step > first_step_ ? elapsed / (step - first_step_) * (total_ - step) : 0;
    if (tty_) {
      constexpr int kWidth = 30;
      int filled = total_ > 0 ? static_cast<int>(kWidth * step / total_) : 0;
      std::string bar(filled, '#');
      bar.resize(kWidth, '.');
      std::printf("\r%s [%s] %lld/%lld loss %.4f %.0f %s ETA %s   ", title_.c_str(), bar.c_str(),
                  static_cast<long long>(step), static_cast<long long>(total_), loss, rate,
                  unit_.c_str(), clock(eta).c_str());
      std::fflush(stdout);
    } else if (step % log_every_ == 0 || step == total_) {
      std::printf("%s step %lld/%lld loss %.4f %.0f %s ETA %s\n", title_.c_str(),
                  static_cast<long long>(step), static_cast<long long>(total_), loss, rate,
                  unit_.c_str(), clock(eta).c_str());
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
  std::string title_, unit_;
  int64_t total_, first_step_;
  int log_every_;
  bool tty_;
  std::chrono::steady_clock::time_point start_;
};
