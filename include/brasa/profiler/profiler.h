#pragma once
// The profiler: times every dispatched op, every autograd node and every user range
// (RecordScope, RECORD_USER_SCOPE) on every thread between start() and stop(), then shows them as
// a key-averages table sorted by self time or writes a Chrome trace (docs/profiler.md).
//
//   brasa::profiler::Profiler prof(brasa::profiler::ProfilerOptions().record_shapes(true));
//   prof.start();
//   loss = model->forward(x).sum(); loss.backward();
//   prof.stop();
//   std::cout << prof.table();
//   prof.export_chrome_trace("trace.json");   // open in https://ui.perfetto.dev

#include <string>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/dispatch/record_function.h"
#include "brasa/profiler/key_averages.h"

namespace brasa::profiler {

struct ProfilerOptions {
  /// Keep the shapes of each op's inputs (key_averages(true) groups by them; the trace shows them).
  BRASA_ARG(bool, record_shapes) = false;
};

/// One recording. Only one profiler records at a time in a process.
class BRASA_API Profiler {
 public:
  explicit Profiler(ProfilerOptions options = {}) : options_(options) {}
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;
  /// Stops a recording still running.
  ~Profiler();

  /// Starts recording on every thread, dropping earlier events of this profiler. Throws
  /// RuntimeError when a profiler is already recording.
  void start();
  /// Stops recording and collects the events; does nothing when not recording.
  void stop();
  bool recording() const { return recording_; }

  /// The events of the last recording, by thread then start time; times are steady-clock ns.
  const std::vector<Event>& events() const { return events_; }
  /// When the last recording started (steady-clock ns): the trace's time origin.
  int64_t start_ns() const { return start_ns_; }
  /// Statistics per op name (and per input shapes when `group_by_input_shape`).
  std::vector<KeyAverage> key_averages(bool group_by_input_shape = false) const;
  /// The key-averages table (format_table).
  std::string table(SortBy sort_by = SortBy::SelfCpuTimeTotal, int row_limit = 100,
                    bool group_by_input_shape = false) const;
  /// The events as Chrome trace JSON (Trace Event Format).
  std::string chrome_trace() const;
  /// Writes chrome_trace() to `path` atomically (temporary file, fsync, rename). Throws
  /// RuntimeError naming the path and the system's reason when it cannot be written.
  void export_chrome_trace(const std::string& path) const;

 private:
  ProfilerOptions options_;
  bool recording_ = false;
  int64_t start_ns_ = 0;
  std::vector<Event> events_;
};

/// Chrome trace JSON of `events`: one complete ("X") event per scope, ts and dur in µs from
/// `origin_ns`, pid = the process id, tid = the OS thread id, args = input shapes and the kind.
BRASA_API std::string chrome_trace_json(const std::vector<Event>& events, int64_t origin_ns);
/// Throws RuntimeError "profiler: cannot write trace '<path>': <why>" when `path` is empty, is a
/// folder, or lies in a folder that is missing or not writable (checked before profiling, so that
/// a long run does not end in an unwritable trace).
BRASA_API void check_trace_path(const std::string& path);
/// Writes `text` to `path` atomically; RuntimeError "profiler: cannot write trace '<path>': <why>".
BRASA_API void write_trace_file(const std::string& path, const std::string& text);

}  // namespace brasa::profiler
