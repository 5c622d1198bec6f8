#include "brasa/profiler/profiler.h"

#include <algorithm>
#include <chrono>

namespace brasa::profiler {

Profiler::~Profiler() {
  if (recording_) detail::stop_recording();
}

void Profiler::start() {
  if (recording_) return;
  events_.clear();
  start_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
  detail::start_recording(options_.record_shapes());
  recording_ = true;
}

void Profiler::stop() {
  if (!recording_) return;
  recording_ = false;
  std::vector<Event> events = detail::stop_recording();
  // A scope opened before start() and closed after it belongs to no recording.
  std::erase_if(events, [&](const Event& e) { return e.start_ns < start_ns_; });
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.thread_id != b.thread_id) return a.thread_id < b.thread_id;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.end_ns > b.end_ns;
  });
  events_ = std::move(events);
}

std::vector<KeyAverage> Profiler::key_averages(bool group_by_input_shape) const {
  return profiler::key_averages(events_, group_by_input_shape);
}

std::string Profiler::table(SortBy sort_by, int row_limit, bool group_by_input_shape) const {
  return format_table(key_averages(group_by_input_shape), sort_by, row_limit);
}

std::string Profiler::chrome_trace() const { return chrome_trace_json(events_, start_ns_); }

void Profiler::export_chrome_trace(const std::string& path) const {
  write_trace_file(path, chrome_trace());
}

}  // namespace brasa::profiler
