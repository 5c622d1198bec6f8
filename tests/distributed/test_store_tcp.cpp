// TCPStore within one process: server + clients over loopback, timeouts measured.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "brasa/distributed/tcp_store.h"

namespace brasa::distributed {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<uint8_t> b(const std::string& s) { return {s.begin(), s.end()}; }

int64_t ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

TCPStoreOptions client_opts(uint16_t port, std::chrono::milliseconds timeout = 5000ms) {
  TCPStoreOptions o;
  o.port = port;
  o.timeout = timeout;
  return o;
}

TCPStoreOptions server_opts(std::chrono::milliseconds timeout = 5000ms) {
  TCPStoreOptions o;
  o.port = 0;
  o.isServer = true;
  o.timeout = timeout;
  return o;
}

// A bound but not listening socket: connecting to its port is refused, and nobody else gets it.
struct RefusingPort {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  uint16_t port = 0;
  RefusingPort() {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    socklen_t len = sizeof(a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~RefusingPort() { ::close(fd); }
};

TEST(TcpStoreTest, ServerAndTwoClientsInThreads) {
  TCPStoreOptions so = server_opts();
  so.numWorkers = 3;
  so.waitWorkers = false;
  TCPStore server("127.0.0.1", so);
  ASSERT_GT(server.getPort(), 0);
  std::atomic<int> failures{0};
  auto worker = [&](int id) {
    try {
      TCPStoreOptions o = client_opts(server.getPort());
      o.numWorkers = 3;
      TCPStore c("127.0.0.1", o);  // registers in "init/"
      for (int i = 0; i < 100; ++i) c.add("counter", 1);
      c.set("key" + std::to_string(id), std::to_string(id * 10));
      c.wait({"key0", "key1"});
      if (c.get_string("key" + std::to_string(1 - id)) != std::to_string((1 - id) * 10)) ++failures;
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      ++failures;
    }
  };
  std::thread t0(worker, 0), t1(worker, 1);
  server.waitForWorkers();
  t0.join();
  t1.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(server.get_string("counter"), "200");
  EXPECT_EQ(server.get_string("init/"), "3");
  EXPECT_EQ(server.getNumKeys(), 4);  // init/, counter, key0, key1
}

TEST(TcpStoreTest, OperationsMatchC10d) {
  TCPStore server("127.0.0.1", server_opts());
  TCPStore c("127.0.0.1", client_opts(server.getPort()));
  EXPECT_EQ(c.getNumKeys(), 0);
  std::vector<uint8_t> bin{0, 1, 0, 255};
  c.set("bin", bin);
  EXPECT_EQ(server.get("bin"), bin);
  std::vector<uint8_t> big(1 << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  server.set("big", big);
  EXPECT_EQ(c.get("big"), big);
  EXPECT_EQ(c.add("n", 5), 5);
  EXPECT_EQ(server.add("n", -7), -2);
  EXPECT_EQ(c.compareSet("x", {}, b("v")), b("v"));
  EXPECT_EQ(c.compareSet("y", b("e"), b("v")), b("e"));
  EXPECT_EQ(c.compareSet("x", b("nope"), b("w")), b("v"));
  EXPECT_EQ(c.compareSet("x", b("v"), b("w")), b("w"));
  EXPECT_TRUE(c.check({"bin", "x"}));
  EXPECT_FALSE(c.check({"bin", "y"}));
  EXPECT_EQ(c.getNumKeys(), 4);
  EXPECT_TRUE(c.deleteKey("bin"));
  EXPECT_FALSE(server.deleteKey("bin"));
  EXPECT_EQ(server.getNumKeys(), 3);
  try {
    c.add("x", 1);
    FAIL() << "add on a non-integer did not throw";
  } catch (const DistributedError& e) {
    EXPECT_NE(std::string(e.what()).find("not a decimal integer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(c.add("n", 1), -1);  // the connection survives a server-side error
}

TEST(TcpStoreTest, GetBlocksOnTheServerUntilSet) {
  TCPStore server("127.0.0.1", server_opts());
  TCPStore c("127.0.0.1", client_opts(server.getPort()));
  std::thread t([&] {
    std::this_thread::sleep_for(100ms);
    server.set("late", "v");
  });
  auto t0 = Clock::now();
  EXPECT_EQ(c.get_string("late"), "v");
  EXPECT_GE(ms_since(t0), 90);
  t.join();
}

TEST(TcpStoreTest, GetTimeoutIsAccurateAndNamesTheKey) {
  TCPStore server("127.0.0.1", server_opts());
  TCPStore c("127.0.0.1", client_opts(server.getPort(), 1000ms));
  auto t0 = Clock::now();
  try {
    c.get("never_set");
    FAIL() << "get did not time out";
  } catch (const DistributedTimeoutError& e) {
    int64_t ms = ms_since(t0);
    std::printf("[ measured ] TCPStore get timeout 1000 ms -> %lld ms\n",
                static_cast<long long>(ms));
    EXPECT_GE(ms, 900);
    EXPECT_LE(ms, 1100);
    std::string msg = e.what();
    EXPECT_NE(msg.find("\"never_set\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("1000 ms"), std::string::npos) << msg;
    EXPECT_NE(msg.find("127.0.0.1:" + std::to_string(server.getPort())), std::string::npos) << msg;
  }
  c.set("a", "1");
  t0 = Clock::now();
  try {
    c.wait({"a", "b"}, 300ms);
    FAIL() << "wait did not time out";
  } catch (const DistributedTimeoutError& e) {
    int64_t ms = ms_since(t0);
    EXPECT_GE(ms, 270);
    EXPECT_LE(ms, 330 + 50);
    EXPECT_NE(std::string(e.what()).find("[\"b\"]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(c.get_string("a"), "1");  // the connection is still usable after a timeout
  c.setTimeout(Store::kNoTimeout);
  std::thread t([&] {
    std::this_thread::sleep_for(50ms);
    server.set("b", "2");
  });
  c.wait({"b"});  // no timeout: waits until set
  t.join();
}

TEST(TcpStoreTest, ConnectToAPortNobodyListensOnFailsWithinTheTimeout) {
  RefusingPort p;
  auto t0 = Clock::now();
  try {
    TCPStore c("127.0.0.1", client_opts(p.port, 500ms));
    FAIL() << "connected to a port nobody listens on";
  } catch (const DistributedError& e) {
    int64_t ms = ms_since(t0);
    std::printf("[ measured ] TCPStore connect timeout 500 ms -> %lld ms\n",
                static_cast<long long>(ms));
    EXPECT_GE(ms, 500);
    EXPECT_LE(ms, 700);
    EXPECT_EQ(std::string(e.what()),
              "TCPStore: could not connect to 127.0.0.1:" + std::to_string(p.port) +
                  " within 500 ms (Connection refused)");
  }
}

TEST(TcpStoreTest, ClientWaitsForAServerThatStartsLater) {
  uint16_t port = 0;
  {
    TCPStore probe("127.0.0.1", server_opts());  // find a free port, then release it
    port = probe.getPort();
  }
  std::string got;
  std::thread client([&] {
    try {
      TCPStore c("localhost", client_opts(port, 5000ms));
      got = c.get_string("hello");
    } catch (const std::exception& e) {
      got = e.what();
    }
  });
  std::this_thread::sleep_for(200ms);
  TCPStoreOptions so = server_opts();
  so.port = port;
  TCPStore server("127.0.0.1", so);
  server.set("hello", "world");
  client.join();
  EXPECT_EQ(got, "world");
}

TEST(TcpStoreTest, ServerShutdownFailsABlockedClientPromptly) {
  auto server = std::make_unique<TCPStore>("127.0.0.1", server_opts());
  TCPStore c("127.0.0.1", client_opts(server->getPort(), 30000ms));
  std::string error;
  Clock::time_point failed_at;
  std::thread t([&] {
    try {
      c.get("never");
    } catch (const DistributedError& e) {
      failed_at = Clock::now();
      error = e.what();
    }
  });
  std::this_thread::sleep_for(100ms);
  auto t0 = Clock::now();
  server.reset();  // stops the server's threads (joins), closing the client's connection
  t.join();
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(failed_at - t0).count(), 2000);
  EXPECT_NE(error.find("get(\"never\")"), std::string::npos) << error;
  EXPECT_THROW(c.set("k", "v"), DistributedError);
}

TEST(TcpStoreTest, WaitWorkersTimesOutCountingJoined) {
  TCPStoreOptions so = server_opts(300ms);
  so.numWorkers = 2;
  try {
    TCPStore server("127.0.0.1", so);
    FAIL() << "waitWorkers did not time out";
  } catch (const DistributedTimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("1 of 2 joined"), std::string::npos) << e.what();
  }
}

TEST(TcpStoreTest, MultiTenantServersShareAPort) {
  TCPStoreOptions so = server_opts();
  so.multiTenant = true;
  TCPStoreOptions so0 = server_opts();
  so0.multiTenant = true;
  TCPStore a("127.0.0.1", so0);
  so.port = a.getPort();
  TCPStore b2("127.0.0.1", so);  // reuses a's server instead of failing to bind
  a.set("shared", "yes");
  EXPECT_EQ(b2.get_string("shared"), "yes");
  so.multiTenant = false;
  EXPECT_THROW(TCPStore("127.0.0.1", so), DistributedError);  // address in use
}

// Note [Liveness leases]: a lease counts while its connection is open and is given back, within
// milliseconds, when the holder's store goes (as it does when the holder's process dies).
TEST(TcpStoreTest, LeasesAreGivenBackWhenTheConnectionCloses) {
  TCPStore server("127.0.0.1", server_opts());
  auto holder = std::make_unique<TCPStore>("127.0.0.1", client_opts(server.getPort()));
  EXPECT_EQ(holder->addWhileConnected("alive/1"), 1);
  EXPECT_EQ(server.addWhileConnected("alive/1"), 2);
  EXPECT_EQ(server.add("alive/1", 0), 2);
  holder.reset();
  const auto t0 = Clock::now();
  while (server.add("alive/1", 0) != 1 && ms_since(t0) < 2000) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(server.add("alive/1", 0), 1);
  EXPECT_LT(ms_since(t0), 2000);
  // A counter overwritten with a non-integer does not take the server down when given back.
  auto other = std::make_unique<TCPStore>("127.0.0.1", client_opts(server.getPort()));
  other->addWhileConnected("alive/2");
  server.set("alive/2", "not a number");
  other.reset();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(server.get_string("alive/2"), "not a number");
  EXPECT_THROW(server.addWhileConnected("alive/2"), DistributedError);
}

}  // namespace
}  // namespace brasa::distributed
