// brasarun: a torchrun-like launcher for brasa programs. See docs/brasarun.md.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>

#include "options.h"
#include "output.h"
#include "workers.h"

namespace brasarun {
namespace {

constexpr double kStopGraceSeconds = 5.0;
int signal_pipe[2] = {-1, -1};

void on_signal(int sig) {
  int saved = errno;
  unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] ssize_t n = ::write(signal_pipe[1], &byte, 1);
  errno = saved;
}

void install_signal_handlers() {
  if (::pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    say(std::string("cannot create a pipe: ") + std::strerror(errno));
    std::_Exit(1);
  }
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &action, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
}

int take_signal() {
  unsigned char byte = 0;
  return ::read(signal_pipe[0], &byte, 1) == 1 ? byte : 0;
}

int pick_free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = -1;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

std::string random_run_id() {
  std::random_device device;
  static const char hex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 12; ++i) id += hex[device() % 16];
  return id;
}

// Runs one generation; returns the launcher's exit code and sets `failed` when a worker failed.
int run_generation(const Launch& launch, bool& failed) {
  WorkerGroup group(launch);
  failed = false;
  while (true) {
    auto failure = group.poll(launch.options->monitor_interval, signal_pipe[0]);
    if (int sig = take_signal()) {
      say("got " + std::string(sigdescr_np(sig) ? sigdescr_np(sig) : "a signal") + ", stopping " +
          std::to_string(group.running()) + " worker(s)");
      group.stop(sig, kStopGraceSeconds, signal_pipe[0]);
      return 128 + sig;
    }
    if (failure) {
      std::string who = "rank " + std::to_string(failure->rank) +
                        (failure->pid > 0 ? " (pid " + std::to_string(failure->pid) + ")" : "");
      say(who + " failed: " + describe_status(failure->status));
      size_t others = group.running();
      if (others > 0) say("stopping the other " + std::to_string(others) + " worker(s)");
      group.stop(SIGTERM, kStopGraceSeconds, signal_pipe[0]);
      failed = true;
      return exit_code_of(failure->status);
    }
    if (group.all_exited()) {
      group.stop(SIGTERM, 0,
                 -1);  // ends what the workers left behind in their groups, flushes output
      return 0;
    }
  }
}

int run(const Options& options) {
  install_signal_handlers();
  Launch launch;
  launch.options = &options;
  launch.run_id = options.run_id.empty() ? random_run_id() : options.run_id;
  for (int generation = 0;; ++generation) {
    launch.generation = generation;
    launch.master_port = options.master_port == 0 ? pick_free_port() : options.master_port;
    if (launch.master_port < 0) {
      say(std::string("cannot pick a free port: ") + std::strerror(errno));
      return 1;
    }
    bool failed = false;
    int code = run_generation(launch, failed);
    if (!failed) return code;
    if (generation >= options.max_restarts) {
      if (options.max_restarts > 0)
        say("giving up after " + std::to_string(generation + 1) + " attempts; exit code " +
            std::to_string(code));
      return code;
    }
    if (int sig = take_signal())
      return 128 + sig;  // it came while the failed group was being stopped
    say("restarting the worker group (generation " + std::to_string(generation + 1) + ", restart " +
        std::to_string(generation + 1) + " of " + std::to_string(options.max_restarts) + ")");
  }
}

}  // namespace
}  // namespace brasarun

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = brasarun::parse_options(args);
  if (!parsed.options) {
    brasarun::write_all(parsed.exit_code == 0 ? STDOUT_FILENO : STDERR_FILENO, parsed.message);
    return parsed.exit_code;
  }
  return brasarun::run(*parsed.options);
}
