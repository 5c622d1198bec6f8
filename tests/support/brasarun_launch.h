#pragma once
// The frame of tests that start worker processes with brasarun (loopback): a scratch directory per
// test process, commands bounded in time, and the brasarun command line for N ranks of a worker.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace brasa::testing {

/// A scratch directory under the temp dir, named `prefix` + this process's id (created).
inline std::string scratch_dir(const std::string& prefix) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d.string();
}

/// Runs `cmd` through the shell under `timeout -k 5 120` (brasarun stops the other ranks when one
/// fails); its exit status, or -1 when it did not exit normally.
inline int run_bounded(const std::string& cmd) {
  const int status = std::system(("timeout -k 5 120 " + cmd).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// `brasarun --nproc-per-node ranks --master-port 0 worker args`.
inline std::string brasarun_command(const std::string& brasarun, int ranks,
                                    const std::string& worker, const std::string& args) {
  return brasarun + " --nproc-per-node " + std::to_string(ranks) + " --master-port 0 " + worker +
         " " + args;
}

}  // namespace brasa::testing
