#pragma once
// One TensorBoard event file: TFRecord-framed Event messages (Note [TensorBoard event files]).

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace brasa::tensorboard::detail {

/// Creates `dir` (and its parents) and a new event file in it, whose first record is the
/// file_version event. Throws RuntimeError naming the path and the OS reason on any I/O failure.
class EventFile {
 public:
  EventFile(const std::string& dir, double flush_secs);
  ~EventFile();  // flushes and closes; errors there are dropped (a destructor cannot throw)
  EventFile(const EventFile&) = delete;
  EventFile& operator=(const EventFile&) = delete;

  /// An Event{wall_time: now, step, summary: `summary`} (a serialized Summary message).
  void write_summary(const std::string& summary, int64_t step);
  void flush();
  void close();
  const std::string& path() const { return path_; }

 private:
  void write_event(const std::string& event);
  std::string path_;
  std::FILE* file_ = nullptr;
  std::chrono::steady_clock::duration flush_every_;
  std::chrono::steady_clock::time_point last_flush_;
};

/// Seconds since the epoch, as Event.wall_time holds them.
double wall_time();

}  // namespace brasa::tensorboard::detail
