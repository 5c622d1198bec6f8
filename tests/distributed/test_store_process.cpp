// Stores across processes: forked children rendezvous through the parent's TCPStore or a shared
// FileStore; a killed server fails a blocked client fast. Every child is reaped (killed on
// overrun); children carry an alarm so none outlives a broken test.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <thread>

#include "brasa/distributed/file_store.h"
#include "brasa/distributed/tcp_store.h"

namespace brasa::distributed {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

pid_t fork_child(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(15);
    int rc = 3;
    try {
      rc = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child %d: %s\n", ::getpid(), e.what());
      rc = 2;
    }
    std::fflush(stderr);
    ::_exit(rc);
  }
  return pid;
}

// Exit status of `pid` (128+signal when killed); kills it once `limit` passes.
int reap(pid_t pid, std::chrono::milliseconds limit = 10000ms) {
  auto deadline = Clock::now() + limit;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(5ms);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::vector<std::string> rank_keys(int n) {
  std::vector<std::string> keys;
  for (int r = 0; r < n; ++r) keys.push_back("rank" + std::to_string(r));
  return keys;
}

// Each of ranks 1..3 bumps the counter, publishes its key and waits for everyone's.
int rendezvous_body(Store& s, int rank) {
  s.add("counter", 1);
  s.set("rank" + std::to_string(rank), "addr" + std::to_string(rank));
  s.wait(rank_keys(4));
  for (int r = 0; r < 4; ++r) {
    if (s.get_string("rank" + std::to_string(r)) != "addr" + std::to_string(r)) return 1;
  }
  return 0;
}

TEST(StoreProcessTest, TcpStoreThreeChildrenRendezvous) {
  TCPStoreOptions so;
  so.port = 0;
  so.isServer = true;
  so.numWorkers = 4;
  so.waitWorkers = false;
  so.timeout = 8000ms;
  TCPStore server("127.0.0.1", so);
  const uint16_t port = server.getPort();
  std::vector<pid_t> kids;
  for (int rank = 1; rank <= 3; ++rank) {
    kids.push_back(fork_child([port, rank] {
      TCPStoreOptions o;
      o.port = port;
      o.numWorkers = 4;
      o.timeout = 8000ms;
      TCPStore c("127.0.0.1", o);
      return rendezvous_body(c, rank);
    }));
  }
  server.waitForWorkers();
  server.set("rank0", "addr0");
  server.wait(rank_keys(4));
  for (pid_t k : kids) EXPECT_EQ(reap(k), 0);
  EXPECT_EQ(server.get_string("counter"), "3");
  EXPECT_EQ(server.get_string("init/"), "4");
}

TEST(StoreProcessTest, KilledServerFailsABlockedGetFast) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t host = fork_child([&] {
    TCPStoreOptions so;
    so.port = 0;
    so.isServer = true;
    TCPStore server("127.0.0.1", so);
    uint16_t port = server.getPort();
    if (::write(fds[1], &port, sizeof(port)) != sizeof(port)) return 1;
    ::pause();  // until killed
    return 0;
  });
  uint16_t port = 0;
  ASSERT_EQ(::read(fds[0], &port, sizeof(port)), static_cast<ssize_t>(sizeof(port)));
  ::close(fds[0]);
  ::close(fds[1]);
  TCPStoreOptions o;
  o.port = port;
  o.timeout = 30000ms;
  TCPStore c("127.0.0.1", o);
  c.set("alive", "1");
  std::thread killer([host] {
    std::this_thread::sleep_for(200ms);
    ::kill(host, SIGKILL);
  });
  auto t0 = Clock::now();
  std::string error;
  try {
    c.get("never");
  } catch (const DistributedError& e) {
    error = e.what();
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  killer.join();
  std::printf("[ measured ] get blocked on a server killed after 200 ms failed after %lld ms\n",
              static_cast<long long>(ms));
  EXPECT_EQ(reap(host), 128 + SIGKILL);
  EXPECT_LT(ms, 2000);
  const std::string where = "127.0.0.1:" + std::to_string(port);
  EXPECT_NE(error.find(where), std::string::npos) << error;
  EXPECT_NE(error.find("get(\"never\")"), std::string::npos) << error;
  t0 = Clock::now();
  try {
    c.set("after", "x");
    FAIL() << "set after the server died did not throw";
  } catch (const DistributedError& e) {
    EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count(), 100);
}

TEST(StoreProcessTest, FileStoreForkedProcessesRendezvous) {
  char dir_template[] = "/tmp/brasa_filestore_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string path = dir + "/store";
  {
    FileStore parent(path, 4);
    parent.setTimeout(8000ms);
    std::vector<pid_t> kids;
    for (int rank = 1; rank <= 3; ++rank) {
      kids.push_back(fork_child([&path, rank] {
        FileStore s(path, 4);
        s.setTimeout(8000ms);
        int rc = rendezvous_body(s, rank);
        s.wait({"done"});  // stay until the parent has read everything
        return rc;
      }));
    }
    parent.set("rank0", "addr0");
    parent.wait(rank_keys(4));
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(parent.get_string("rank" + std::to_string(r)), "addr" + std::to_string(r));
    }
    EXPECT_EQ(parent.get_string("counter"), "3");
    parent.set("done", "1");
    for (pid_t k : kids) EXPECT_EQ(reap(k), 0);
    EXPECT_TRUE(std::filesystem::exists(path));  // 3 of 4 instances gone
  }
  EXPECT_FALSE(std::filesystem::exists(path));  // the last one removed the file
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace brasa::distributed
