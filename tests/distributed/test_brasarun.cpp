// Runs the built brasarun launcher with /bin/sh workers: environment, output prefixes, failure
// propagation, stopping the other workers, restarts, signals, bad options, and no stray processes.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#ifndef BRASA_BRASARUN
#error "BRASA_BRASARUN (the path of the built brasarun) is set by tools/CMakeLists.txt"
#endif

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
  double seconds = 0;
};

// Runs brasarun with `args`; kills it (and fails the test) after `timeout_s`. If `signal_after_s` >
// 0, sends `sig` to brasarun after that many seconds.
RunResult run_brasarun(const std::vector<std::string>& args, double timeout_s = 15, int sig = 0,
                       double signal_after_s = 0) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv{const_cast<char*>(BRASA_BRASARUN)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(126);
  }
  ::close(fds[1]);
  RunResult result;
  bool exited = false, signalled = false, timed_out = false;
  int status = 0;
  std::optional<Clock::time_point> exited_at;
  while (true) {
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (!exited && sig != 0 && !signalled && elapsed >= signal_after_s) {
      ::kill(pid, sig);
      signalled = true;
    }
    if (!exited && elapsed > timeout_s) {
      timed_out = true;
      ::kill(pid, SIGKILL);
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      exited_at = Clock::now();
      result.seconds = elapsed;
    }
    // A stray holder of the pipe must not keep the test waiting past a short drain.
    if (exited && Clock::now() - *exited_at > std::chrono::seconds(2)) break;
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) {
      char buffer[4096];
      ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n > 0) result.output.append(buffer, static_cast<size_t>(n));
      if (n == 0 && exited) break;
    }
  }
  ::close(fds[0]);
  EXPECT_FALSE(timed_out) << "brasarun did not finish within " << timeout_s << " s; output:\n"
                          << result.output;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// A killed grandchild of a worker is adopted by init and is a zombie until init reaps it: a zombie
// is dead, but kill(pid, 0) still succeeds on it for that short while.
bool alive_now(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  auto paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'Z';
}

bool alive(pid_t pid) {
  for (int i = 0; i < 20 && alive_now(pid); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return alive_now(pid);
}

class Brasarun : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/brasarun_test_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The pids the workers wrote (one file per line "<pid>") are all gone: nothing outlived brasarun.
  void expect_no_survivors() {
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (entry.path().filename().string().rfind("pid", 0) != 0) continue;
      std::ifstream in(entry.path());
      pid_t pid = 0;
      while (in >> pid) {
        ++checked;
        EXPECT_FALSE(alive(pid)) << "process " << pid << " (" << entry.path()
                                 << ") outlived brasarun";
        if (alive(pid)) ::kill(pid, SIGKILL);
      }
    }
    EXPECT_GT(checked, 0);
  }

  std::string pid_file() const { return dir_ + "/pid.$RANK"; }
  std::string dir_;
};

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_F(Brasarun, GivesEveryWorkerTorchrunEnvironmentAndPrefixesLines) {
  auto r = run_brasarun(
      {"--nproc-per-node", "3", "--master-port=12345", "--run-id", "job7", "/bin/sh", "-c",
       "echo $$ > " + pid_file() +
           "; echo env $RANK $LOCAL_RANK $WORLD_SIZE $LOCAL_WORLD_SIZE $GROUP_RANK $MASTER_ADDR "
           "$MASTER_PORT $TORCHELASTIC_RESTART_COUNT $BRASA_RESTART_COUNT $TORCHELASTIC_RUN_ID "
           "$BRASA_RUN_ID $TORCHELASTIC_MAX_RESTARTS; echo to-stderr >&2; printf no-newline"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (int rank = 0; rank < 3; ++rank) {
    std::string prefix = "[rank " + std::to_string(rank) + "]: ";
    EXPECT_EQ(count(r.output, prefix + "env " + std::to_string(rank) + " " + std::to_string(rank) +
                                  " 3 3 0 127.0.0.1 12345 0 0 job7 job7 0\n"),
              1)
        << r.output;
    EXPECT_EQ(count(r.output, prefix + "to-stderr\n"), 1) << r.output;
    EXPECT_EQ(count(r.output, prefix + "no-newline\n"), 1) << r.output;
  }
  expect_no_survivors();
}

TEST_F(Brasarun, InheritsTheRestOfTheEnvironmentAndNoPrefixPassesThrough) {
  ::setenv("BRASARUN_TEST_VAR", "kept", 1);
  auto r = run_brasarun({"--no-prefix", "--", "/bin/sh", "-c",
                         "echo $$ > " + pid_file() + "; echo $BRASARUN_TEST_VAR"});
  ::unsetenv("BRASARUN_TEST_VAR");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "kept\n");
  expect_no_survivors();
}

TEST_F(Brasarun, SecondNodeGetsGlobalRanks) {
  auto r = run_brasarun(
      {"--nnodes", "2", "--node-rank", "1", "--nproc-per-node=2", "/bin/sh", "-c",
       "echo $$ > " + pid_file() + "; echo ranks $RANK $LOCAL_RANK $WORLD_SIZE $GROUP_RANK"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count(r.output, "[rank 2]: ranks 2 0 4 1\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 3]: ranks 3 1 4 1\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]"), 0) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, FailingWorkerStopsTheOthersAndSetsTheExitCode) {
  // Rank 1 fails; ranks 0 and 2 sleep (one of them through a child process of the shell).
  auto r = run_brasarun({"--nproc-per-node", "3", "/bin/sh", "-c",
                         "echo $$ > " + pid_file() +
                             "; if [ $RANK = 1 ]; then sleep 0.3; exit 3; fi;"
                             " if [ $RANK = 2 ]; then sleep 60 & echo $! >> " +
                             pid_file() + "; wait; fi; exec sleep 60"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_LT(r.seconds, 7.0) << r.output;
  EXPECT_NE(r.output.find("brasarun: rank 1 (pid "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("failed: exit code 3"), std::string::npos) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, WorkerKilledBySignalGives128PlusSignal) {
  auto r = run_brasarun(
      {"--nproc-per-node", "2", "/bin/sh", "-c",
       "echo $$ > " + pid_file() + "; if [ $RANK = 0 ]; then kill -9 $$; fi; exec sleep 60"});
  EXPECT_EQ(r.exit_code, 128 + 9) << r.output;
  EXPECT_LT(r.seconds, 7.0);
  EXPECT_NE(r.output.find("rank 0 (pid "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("killed by signal 9 (SIGKILL)"), std::string::npos) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, WorkerIgnoringSigtermIsKilledAfterTheGracePeriod) {
  auto r = run_brasarun({"--nproc-per-node", "2", "/bin/sh", "-c",
                         "echo $$ > " + pid_file() +
                             "; if [ $RANK = 0 ]; then sleep 0.3; exit 1; fi; trap '' TERM; while "
                             ":; do sleep 0.1; done"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_GT(r.seconds, 4.0);
  EXPECT_LT(r.seconds, 8.0);
  expect_no_survivors();
}

TEST_F(Brasarun, RestartsTheGroupOnceAndSucceeds) {
  auto r = run_brasarun(
      {"--nproc-per-node", "2", "--max-restarts", "1", "--master-port", "0",
       "--monitor-interval=0.05", "/bin/sh", "-c",
       "echo $$ >> " + pid_file() +
           "; echo gen $BRASA_RESTART_COUNT $TORCHELASTIC_RESTART_COUNT;"
           " if [ $RANK = 1 ] && [ $BRASA_RESTART_COUNT = 0 ]; then exit 4; fi; sleep 0.2"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count(r.output, "[rank 1]: gen 0 0\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]: gen 1 1\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 1]: gen 1 1\n"), 1) << r.output;
  EXPECT_NE(r.output.find("rank 1 (pid "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("restarting the worker group (generation 1"), std::string::npos)
      << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, GivesUpAfterMaxRestarts) {
  auto r =
      run_brasarun({"--max-restarts", "1", "/bin/sh", "-c",
                    "echo $$ >> " + pid_file() + "; echo attempt $BRASA_RESTART_COUNT; exit 6"});
  EXPECT_EQ(r.exit_code, 6) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]: attempt 0\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]: attempt 1\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "failed: exit code 6"), 2) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]: attempt 2"), 0) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, ForwardsSigtermAndExits143) {
  auto r = run_brasarun(
      {"--nproc-per-node", "2", "/bin/sh", "-c", "echo $$ > " + pid_file() + "; exec sleep 60"}, 15,
      SIGTERM, 0.5);
  EXPECT_EQ(r.exit_code, 143) << r.output;
  EXPECT_LT(r.seconds, 3.0) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, ForwardsSigintToWorkersFirstAndExits130) {
  // The workers see the SIGINT itself (not SIGTERM), so a training script can save and exit
  // cleanly.
  auto r = run_brasarun(
      {"--nproc-per-node", "2", "/bin/sh", "-c",
       "echo $$ > " + pid_file() + "; trap 'echo got-int; exit 0' INT; sleep 60 & echo $! >> " +
           pid_file() + "; wait"},
      15, SIGINT, 1.0);
  EXPECT_EQ(r.exit_code, 130) << r.output;
  EXPECT_LT(r.seconds, 4.0) << r.output;
  EXPECT_EQ(count(r.output, "[rank 0]: got-int\n"), 1) << r.output;
  EXPECT_EQ(count(r.output, "[rank 1]: got-int\n"), 1) << r.output;
  expect_no_survivors();
}

TEST_F(Brasarun, BadCommandLinesExit2WithUsage) {
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{},
                                             {"--bogus", "/bin/true"},
                                             {"--nproc-per-node", "0", "/bin/true"},
                                             {"--nproc-per-node=x", "/bin/true"},
                                             {"--nnodes", "2", "--node-rank", "2", "/bin/true"},
                                             {"--nnodes", "2", "--master-port", "0", "/bin/true"},
                                             {"--monitor-interval", "-1", "/bin/true"},
                                             {"--master-port", "70000", "/bin/true"},
                                             {"--nproc-per-node", "3abc", "/bin/true"},
                                             {"--master-port", "0x10", "/bin/true"},
                                             {"-x", "/bin/true"},
                                             {"--max-restarts"}}) {
    auto r = run_brasarun(args);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("usage: brasarun"), std::string::npos) << r.output;
  }
  auto help = run_brasarun({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--max-restarts"), std::string::npos);
}

// The program's own arguments, options among them, reach it unchanged; a repeated option takes its
// last value; integers are decimal ("010" is 10, not octal 8).
TEST_F(Brasarun, PassesTheProgramsArgumentsThroughUnchanged) {
  auto r =
      run_brasarun({"--no-prefix", "--nproc-per-node", "3", "--nproc-per-node=1", "--master-port",
                    "010", "/bin/sh", "-c", "printf '%s|' \"$WORLD_SIZE\" \"$MASTER_PORT\" \"$@\"",
                    "sh", "--nproc-per-node", "5", "--help", "--", "", "-x"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "1|10|--nproc-per-node|5|--help|--||-x|");
}

TEST_F(Brasarun, MissingProgramFailsWith127) {
  auto r = run_brasarun({dir_ + "/no-such-program"});
  EXPECT_EQ(r.exit_code, 127) << r.output;
  EXPECT_NE(r.output.find("cannot run"), std::string::npos) << r.output;
}

}  // namespace
