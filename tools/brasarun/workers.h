#pragma once
// One generation of local workers: spawned in their own process groups with torchrun's environment,
// monitored, and stopped as a whole (SIGTERM to every group, SIGKILL after a grace period).

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "options.h"

namespace brasarun {

struct Launch {
  const Options* options = nullptr;
  int generation = 0;
  int master_port = 0;
  std::string run_id;
};

struct WorkerExit {
  int rank = 0;
  pid_t pid = 0;
  int status = 0;  // as from waitpid
};

/// "exit code 3" or "killed by signal 9 (SIGKILL)".
std::string describe_status(int status);
/// The launcher's exit code for a worker status: the exit code, or 128 + signal.
int exit_code_of(int status);

class WorkerGroup {
 public:
  /// Starts every local worker; a worker whose exec fails exits 127 with a message on its stderr.
  explicit WorkerGroup(const Launch& launch);
  ~WorkerGroup();
  WorkerGroup(const WorkerGroup&) = delete;
  WorkerGroup& operator=(const WorkerGroup&) = delete;

  /// Forwards output for up to `seconds` (returning early when a worker stream or `wake_fd` is
  /// readable), then reaps finished workers. Returns the first worker that failed, if any.
  std::optional<WorkerExit> poll(double seconds, int wake_fd);
  bool all_exited() const;
  size_t running() const;
  /// Sends `sig` to every worker's process group (also groups whose leader already exited).
  void signal_all(int sig);
  /// Stops the group: `first_signal` (SIGTERM, or the signal brasarun got) to every process group,
  /// up to `grace` seconds (cut short when `wake_fd` becomes readable), then SIGKILL; reaps every
  /// worker and flushes their output.
  void stop(int first_signal, double grace, int wake_fd);

 private:
  struct Worker;
  std::optional<WorkerExit> reap(bool block);
  void pump_for(double seconds, int wake_fd);

  std::vector<Worker> workers_;
  std::optional<WorkerExit> start_failure_;  // a worker that could not be forked
};

}  // namespace brasarun
