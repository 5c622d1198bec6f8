// HashStore, PrefixStore and the c10d compat spellings.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "brasa/distributed/hash_store.h"
#include "brasa/distributed/prefix_store.h"
#include "torch/csrc/distributed/c10d/FileStore.hpp"
#include "torch/csrc/distributed/c10d/HashStore.hpp"
#include "torch/csrc/distributed/c10d/PrefixStore.hpp"
#include "torch/csrc/distributed/c10d/Store.hpp"
#include "torch/csrc/distributed/c10d/TCPStore.hpp"

namespace brasa::distributed {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<uint8_t> b(const std::string& s) { return {s.begin(), s.end()}; }

TEST(HashStoreTest, SetGetAddCheckDeleteNumKeys) {
  HashStore s;
  s.set("a", b("1"));
  s.set("bin", std::vector<uint8_t>{0, 255, 0});
  EXPECT_EQ(s.get("a"), b("1"));
  EXPECT_EQ(s.get("bin"), (std::vector<uint8_t>{0, 255, 0}));
  EXPECT_EQ(s.add("c", 5), 5);
  EXPECT_EQ(s.add("c", -2), 3);
  EXPECT_EQ(s.get_string("c"), "3");
  EXPECT_TRUE(s.check({"a", "c"}));
  EXPECT_FALSE(s.check({"a", "zz"}));
  EXPECT_EQ(s.getNumKeys(), 3);
  EXPECT_TRUE(s.deleteKey("a"));
  EXPECT_FALSE(s.deleteKey("a"));
  EXPECT_EQ(s.getNumKeys(), 2);
  EXPECT_THROW(s.add("bin", 1), ValueError);
}

// Same answers as torch.distributed.HashStore.compare_set (torch 1.13).
TEST(HashStoreTest, CompareSetSemantics) {
  HashStore s;
  EXPECT_EQ(s.compareSet("x", {}, b("v")), b("v"));      // absent + empty expected: set
  EXPECT_EQ(s.compareSet("y", b("e"), b("v")), b("e"));  // absent + expected: returns expected
  EXPECT_FALSE(s.check({"y"}));
  EXPECT_EQ(s.compareSet("x", b("nope"), b("w")), b("v"));  // mismatch: current value
  EXPECT_EQ(s.compareSet("x", b("v"), b("w")), b("w"));     // match: swapped
  EXPECT_EQ(s.get("x"), b("w"));
}

TEST(HashStoreTest, GetBlocksUntilAnotherThreadSets) {
  HashStore s;
  s.setTimeout(5000ms);
  std::thread t([&] {
    std::this_thread::sleep_for(50ms);
    s.set("late", "here");
  });
  EXPECT_EQ(s.get_string("late"), "here");
  s.wait({"late"});
  t.join();
  s.setTimeout(Store::kNoTimeout);  // waits without end
  std::thread t2([&] {
    std::this_thread::sleep_for(50ms);
    s.set("later", "x");
  });
  s.wait({"later"});
  t2.join();
}

TEST(HashStoreTest, GetAndWaitTimeOutNamingTheKey) {
  HashStore s;
  s.setTimeout(200ms);
  s.set("present", "1");
  auto t0 = Clock::now();
  try {
    s.get("missing_key");
    FAIL() << "get did not time out";
  } catch (const DistributedTimeoutError& e) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    EXPECT_GE(ms, 200);
    EXPECT_LE(ms, 220 + 100);  // +10%, plus scheduling slack on a loaded machine
    EXPECT_NE(std::string(e.what()).find("\"missing_key\""), std::string::npos) << e.what();
  }
  try {
    s.wait({"present", "other"}, 50ms);
    FAIL() << "wait did not time out";
  } catch (const DistributedTimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("[\"other\"]"), std::string::npos) << e.what();
  }
}

TEST(PrefixStoreTest, PrefixesIsolateTheSameKey) {
  auto base = make_intrusive<HashStore>();
  PrefixStore run0("run0", base), run1("run1", base);
  run0.set("addr", "a0");
  run1.set("addr", "a1");
  EXPECT_EQ(run0.get_string("addr"), "a0");
  EXPECT_EQ(run1.get_string("addr"), "a1");
  EXPECT_EQ(base->get_string("run0/addr"), "a0");
  EXPECT_EQ(run0.add("n", 2), 2);
  EXPECT_EQ(run1.add("n", 5), 5);
  EXPECT_TRUE(run0.check({"addr", "n"}));
  EXPECT_TRUE(run0.deleteKey("addr"));
  EXPECT_FALSE(run0.check({"addr"}));
  EXPECT_TRUE(run1.check({"addr"}));
  EXPECT_EQ(run0.compareSet("c", {}, b("x")), b("x"));
  EXPECT_FALSE(run1.check({"c"}));
  EXPECT_EQ(run0.getNumKeys(), base->getNumKeys());
  PrefixStore nested("gen1", make_intrusive<PrefixStore>("job", base));
  nested.set("k", "v");
  EXPECT_EQ(base->get_string("job/gen1/k"), "v");
  EXPECT_EQ(run0.getUnderlyingStore().get(), base.get());
  base->setTimeout(50ms);
  PrefixStore timed("t", base);
  try {
    timed.get("k");
    FAIL();
  } catch (const DistributedTimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("\"t/k\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(PrefixStore("p", nullptr), ValueError);
}

TEST(StoreCompatTest, LibtorchSpellings) {
  c10::intrusive_ptr<c10d::Store> hash = c10::make_intrusive<c10d::HashStore>();
  auto prefixed = c10::make_intrusive<c10d::PrefixStore>("gen0", hash);
  prefixed->set("k", std::vector<uint8_t>{'v'});
  EXPECT_EQ(hash->get("gen0/k"), std::vector<uint8_t>{'v'});
  EXPECT_EQ(hash->getTimeout(), c10d::Store::kDefaultTimeout);

  const int rank = 0;
  auto store = c10::make_intrusive<c10d::TCPStore>(
      "127.0.0.1", c10d::TCPStoreOptions{/*port=*/0, /*isServer=*/rank == 0, 1});
  EXPECT_GT(store->getPort(), 0);
  EXPECT_EQ(store->getHost(), "127.0.0.1");
  EXPECT_EQ(store->add("world", 1), 1);
  EXPECT_EQ(c10d::TCPStoreOptions::kDefaultPort, 29500);
  c10d::TCPStoreOptions opts;
  opts.port = store->getPort();
  opts.timeout = std::chrono::milliseconds(2000);
  c10d::TCPStore client("127.0.0.1", opts);
  EXPECT_EQ(client.add("world", 1), 2);
  c10::intrusive_ptr<c10d::Store> as_base = store;
  c10d::PrefixStore p("x", as_base);
  p.set("y", std::vector<uint8_t>{1});
  EXPECT_TRUE(client.check({"x/y"}));
}

}  // namespace
}  // namespace brasa::distributed
