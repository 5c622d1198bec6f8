#include "workers.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <utility>

#include "output.h"
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace brasarun {

struct WorkerGroup::Worker {
  int rank = 0;
  pid_t pid = -1;
  bool exited = false;
  int status = 0;
  std::vector<LineForwarder> streams;
};

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) +
           (name ? std::string(" (SIG") + name + ")" : "");
  }
  return "status " + std::to_string(status);
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

namespace {

using Clock = std::chrono::steady_clock;

void make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    say(std::string("cannot create a pipe: ") + std::strerror(errno));
    std::_Exit(1);
  }
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
}

void set_worker_env(const Launch& launch, int local_rank) {
  const Options& o = *launch.options;
  const int nproc = o.nproc_per_node;
  const long world = static_cast<long>(o.nnodes) * nproc;
  const long rank = static_cast<long>(o.node_rank) * nproc + local_rank;
  auto set = [](const char* key, const std::string& value) { ::setenv(key, value.c_str(), 1); };
  set("RANK", std::to_string(rank));
  set("LOCAL_RANK", std::to_string(local_rank));
  set("WORLD_SIZE", std::to_string(world));
  set("LOCAL_WORLD_SIZE", std::to_string(nproc));
  set("GROUP_RANK", std::to_string(o.node_rank));
  set("ROLE_RANK", std::to_string(rank));
  set("ROLE_WORLD_SIZE", std::to_string(world));
  set("MASTER_ADDR", o.master_addr);
  set("MASTER_PORT", std::to_string(launch.master_port));
  set("TORCHELASTIC_RESTART_COUNT", std::to_string(launch.generation));
  set("BRASA_RESTART_COUNT", std::to_string(launch.generation));
  set("TORCHELASTIC_MAX_RESTARTS", std::to_string(o.max_restarts));
  set("TORCHELASTIC_RUN_ID", launch.run_id);
  set("BRASA_RUN_ID", launch.run_id);
  set("TORCHELASTIC_USE_AGENT_STORE", "False");
  if (nproc > 1) ::setenv("OMP_NUM_THREADS", "1", 0);
}

// Runs in the forked child: only async-signal-safe work plus setenv (brasarun is single-threaded).
[[noreturn]] void exec_worker(const Launch& launch, int local_rank, int out_fd, int err_fd,
                              pid_t parent) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(128 + SIGKILL);
#endif
  // brasarun's handlers would write into its signal pipe: a signal that reached this child before
  // the exec (stop() can come that early) would look like one sent to brasarun. Signals are blocked
  // across fork(), so one that arrived in between is delivered, with the default action, on
  // unblocking.
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
  if (out_fd >= 0) ::dup2(out_fd, STDOUT_FILENO);
  if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
  set_worker_env(launch, local_rank);
  const auto& command = launch.options->command;
  std::vector<char*> argv;
  for (const auto& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  write_all(STDERR_FILENO,
            "brasarun: cannot run '" + command[0] + "': " + std::strerror(errno) + "\n");
  ::_exit(127);
}

}  // namespace

WorkerGroup::WorkerGroup(const Launch& launch) {
  const Options& o = *launch.options;
  const pid_t self = ::getpid();
  workers_.resize(static_cast<size_t>(o.nproc_per_node));
  for (int local_rank = 0; local_rank < o.nproc_per_node; ++local_rank) {
    Worker& w = workers_[static_cast<size_t>(local_rank)];
    w.rank = o.node_rank * o.nproc_per_node + local_rank;
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (o.prefix) {
      make_pipe(out);
      make_pipe(err);
    }
    sigset_t all, old;
    sigfillset(&all);
    ::sigprocmask(SIG_BLOCK, &all, &old);
    pid_t pid = ::fork();
    if (pid != 0) ::sigprocmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0) {
      say(std::string("cannot fork a worker: ") + std::strerror(errno));
      w.exited = true;
      w.status = 1 << 8;  // reported as "exit code 1"
      if (!start_failure_) start_failure_ = WorkerExit{w.rank, -1, w.status};
      for (int fd : {out[0], out[1], err[0], err[1]})
        if (fd >= 0) ::close(fd);
      continue;
    }
    if (pid == 0) exec_worker(launch, local_rank, out[1], err[1], self);
    ::setpgid(pid, pid);  // also in the child: whichever runs first wins the race
    w.pid = pid;
    if (o.prefix) {
      ::close(out[1]);
      ::close(err[1]);
      std::string prefix = "[rank " + std::to_string(w.rank) + "]: ";
      w.streams.emplace_back(out[0], STDOUT_FILENO, prefix);
      w.streams.emplace_back(err[0], STDERR_FILENO, prefix);
    }
  }
}

WorkerGroup::~WorkerGroup() {
  if (!all_exited()) stop(SIGKILL, 0, -1);
}

bool WorkerGroup::all_exited() const { return running() == 0; }

size_t WorkerGroup::running() const {
  size_t n = 0;
  for (const auto& w : workers_) n += w.exited ? 0 : 1;
  return n;
}

void WorkerGroup::pump_for(double seconds, int wake_fd) {
  std::vector<pollfd> fds;
  std::vector<LineForwarder*> owners;
  for (auto& w : workers_)
    for (auto& s : w.streams)
      if (s.open()) {
        fds.push_back({s.fd(), POLLIN, 0});
        owners.push_back(&s);
      }
  if (wake_fd >= 0) fds.push_back({wake_fd, POLLIN, 0});
  int timeout_ms = static_cast<int>(seconds * 1000);
  int n = ::poll(fds.data(), fds.size(), timeout_ms);
  if (n <= 0) return;
  for (size_t i = 0; i < owners.size(); ++i)
    if (fds[i].revents != 0) owners[i]->pump();
}

std::optional<WorkerExit> WorkerGroup::reap(bool block) {
  std::optional<WorkerExit> failure;
  for (auto& w : workers_) {
    if (w.exited) continue;
    int status = 0;
    pid_t r;
    do {
      r = ::waitpid(w.pid, &status, block ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == 0) continue;
    w.exited = true;
    w.status = r == w.pid ? status : (1 << 8);
    bool ok = WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0;
    if (!ok && !failure) failure = WorkerExit{w.rank, w.pid, w.status};
  }
  return failure;
}

std::optional<WorkerExit> WorkerGroup::poll(double seconds, int wake_fd) {
  pump_for(seconds, wake_fd);
  if (auto failure = std::exchange(start_failure_, std::nullopt)) return failure;
  return reap(false);
}

void WorkerGroup::signal_all(int sig) {
  for (const auto& w : workers_)
    if (w.pid > 0) ::kill(-w.pid, sig);
}

void WorkerGroup::stop(int first_signal, double grace, int wake_fd) {
  signal_all(first_signal);
  auto deadline = Clock::now() + std::chrono::duration<double>(grace);
  while (!all_exited() && Clock::now() < deadline) {
    pollfd wake{wake_fd, POLLIN, 0};
    if (wake_fd >= 0 && ::poll(&wake, 1, 0) > 0) break;  // a second signal: no more grace
    pump_for(0.05, wake_fd);
    reap(false);
  }
  signal_all(SIGKILL);  // also the workers' own children still in their groups
  reap(true);
  auto drain_deadline = Clock::now() + std::chrono::seconds(1);
  auto open_streams = [&] {
    for (auto& w : workers_)
      for (auto& s : w.streams)
        if (s.open()) return true;
    return false;
  };
  while (open_streams() && Clock::now() < drain_deadline) pump_for(0.05, -1);
  for (auto& w : workers_)
    for (auto& s : w.streams) s.finish();
}

}  // namespace brasarun
