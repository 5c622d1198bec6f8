#pragma once
// The frame of tests that start worker processes with brasarun (loopback): a scratch directory per
// test process, commands bounded in time, and the brasarun command line for N ranks of a worker.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
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

/// Two ranks of `worker` (a command line) started by hand on a free loopback port, rank 1 in the
/// background (brasarun would stop rank 0 as soon as rank 1 dies); rank 0's exit status, or -1.
inline int run_two_ranks_by_hand(const std::string& worker) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    return -1;
  }
  const std::string port = std::to_string(ntohs(addr.sin_port));
  ::close(fd);
  const std::string env = "MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port + " WORLD_SIZE=2 ";
  return run_bounded("sh -c '" + env + "RANK=1 " + worker + " >/dev/null 2>&1 & " + env +
                     "RANK=0 " + worker + "; status=$?; wait; exit $status'");
}

}  // namespace brasa::testing
