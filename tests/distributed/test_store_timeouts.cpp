// Timeouts compose: the timeout set on the outermost store is the one a get or wait of a missing
// key waits, for HashStore, TCPStore and PrefixStores over them (nested too).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Ms = std::chrono::milliseconds;

// Runs `op` (which must time out) and returns how long it took; the error must be the timeout.
Ms time_out(const std::function<void()>& op) {
  const auto t0 = Clock::now();
  EXPECT_THROW(op(), c10d::DistributedTimeoutError);
  return std::chrono::duration_cast<Ms>(Clock::now() - t0);
}

// Sets `timeout` on `outer` (the inner stores start with a long one) and checks that get and
// wait of a missing key each take it: at least the timeout, and less than 1.5x of it, which tells
// one timeout from two composed ones (2x) or the inner store's (seconds). On an idle machine every
// case took within 2% of the timeout; the slack is for loaded cores, where the waiting thread was
// measured waking up to 18% late (225-236 ms for 200 ms).
void expect_outer_timeout(c10d::Store& outer, Ms timeout) {
  outer.setTimeout(timeout);
  EXPECT_EQ(outer.getTimeout(), timeout);
  for (int i = 0; i < 2; ++i) {
    const Ms took = i == 0 ? time_out([&] { outer.get("missing"); })
                           : time_out([&] { outer.wait({"missing"}); });
    EXPECT_GE(took, timeout) << (i == 0 ? "get" : "wait");
    EXPECT_LT(took.count(), timeout.count() * 3 / 2) << (i == 0 ? "get" : "wait");
  }
}

c10::intrusive_ptr<c10d::TCPStore> tcp_server(Ms timeout) {
  c10d::TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.timeout = timeout;
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}

TEST(StoreTimeouts, HashStore) {
  c10d::HashStore store;  // 300 s by default
  expect_outer_timeout(store, 200ms);
}

TEST(StoreTimeouts, TcpStore) {
  auto store = tcp_server(20s);
  expect_outer_timeout(*store, 200ms);
}

TEST(StoreTimeouts, PrefixStoreOverHashStore) {
  auto inner = c10::make_intrusive<c10d::HashStore>();
  c10d::PrefixStore outer("run", inner);
  expect_outer_timeout(outer, 200ms);
  EXPECT_EQ(inner->getTimeout(), 200ms);  // as in c10d: the timeout lives in the inner store
}

TEST(StoreTimeouts, PrefixStoreOverTcpStore) {
  auto inner = tcp_server(20s);
  c10d::PrefixStore outer("run", inner);
  expect_outer_timeout(outer, 200ms);
}

TEST(StoreTimeouts, NestedPrefixStoresOverTcpStore) {
  auto inner = tcp_server(3s);
  auto middle = c10::make_intrusive<c10d::PrefixStore>("run", inner);
  c10d::PrefixStore outer("generation0", middle);
  expect_outer_timeout(outer, 150ms);
  EXPECT_EQ(middle->getTimeout(), 150ms);
  EXPECT_EQ(inner->getTimeout(), 150ms);
}

TEST(StoreTimeouts, PrefixStoreOverFileStore) {
  const auto path =
      std::filesystem::temp_directory_path() / ("brasa_timeouts_" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  auto inner = c10::make_intrusive<c10d::FileStore>(path.string(), 1);
  c10d::PrefixStore outer("run", inner);
  expect_outer_timeout(outer, 200ms);
  std::filesystem::remove(path);
}

}  // namespace
