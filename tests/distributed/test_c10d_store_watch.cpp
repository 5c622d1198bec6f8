// Store::watchKey on TCPStore and PrefixStore (create, update, delete, in order), and the error of
// a TCPStore whose server went away (a DistributedError carrying libtorch's std::system_error).

#include <gtest/gtest.h>

#include <cerrno>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "support/caught_as.h"

namespace {

using namespace std::chrono_literals;

// Collects "old->new" strings ("-" for nullopt) from a WatchKeyCallback.
struct Events {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> seen;

  c10d::WatchKeyCallback callback() {
    return [this](c10::optional<std::string> old, c10::optional<std::string> now) {
      std::lock_guard<std::mutex> lock(mutex);
      seen.push_back(old.value_or("-") + "->" + now.value_or("-"));
      cv.notify_all();
    };
  }
  std::vector<std::string> wait_for(size_t n) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait_for(lock, 5s, [&] { return seen.size() >= n; });
    return seen;
  }
};

c10::intrusive_ptr<c10d::TCPStore> server() {
  c10d::TCPStoreOptions opts;
  opts.port = 0;
  opts.isServer = true;
  opts.timeout = 5s;
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}

c10::intrusive_ptr<c10d::TCPStore> client(uint16_t port) {
  c10d::TCPStoreOptions opts;
  opts.port = port;
  opts.timeout = 5s;
  return c10::make_intrusive<c10d::TCPStore>("127.0.0.1", opts);
}

TEST(C10dWatchKey, TcpStoreSeesCreateUpdateAndDeleteFromAnotherClient) {
  auto s = server();
  auto other = client(s->getPort());
  Events events;
  s->watchKey("k", events.callback());
  other->set("unrelated", "x");
  other->set("k", "1");
  other->add("k", 1);
  other->compareSet("k", std::vector<uint8_t>{'2'}, std::vector<uint8_t>{'9'});
  other->deleteKey("k");
  EXPECT_EQ(events.wait_for(4), (std::vector<std::string>{"-->1", "1->2", "2->9", "9->-"}));
}

TEST(C10dWatchKey, PrefixStoreWatchesItsOwnKey) {
  auto s = server();
  c10d::PrefixStore watched("job", s);
  c10d::PrefixStore writer("job", client(s->getPort()));
  Events events;
  watched.watchKey("status", events.callback());
  s->set("status", "not the prefixed key");
  writer.set("status", "up");
  EXPECT_EQ(events.wait_for(1), std::vector<std::string>{"-->up"});
}

TEST(C10dWatchKey, OtherStoresSayTheyCannot) {
  c10d::HashStore store;
  try {
    store.watchKey("k", [](c10::optional<std::string>, c10::optional<std::string>) {});
    FAIL() << "HashStore::watchKey did not throw";
  } catch (const c10::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("Store::watchKey(\"k\"): only TCPStore"),
              std::string::npos)
        << e.what();
  }
  auto s = server();
  EXPECT_THROW(s->watchKey("k", nullptr), c10::ValueError);
}

using brasa::testing::caught_as;

// Note [Error hierarchy]: libtorch 1.13 raises std::system_error here; brasa's error is one too.
TEST(C10dErrors, LostTcpServerIsADistributedErrorAndASystemError) {
  auto s = server();
  auto c = client(s->getPort());
  c->set("k", "v");
  s.reset();  // the server goes away (c is its only other client)
  std::exception_ptr thrown;
  try {
    c->get("k");
  } catch (...) {
    thrown = std::current_exception();
  }
  ASSERT_TRUE(thrown) << "get after the server went away did not throw";
  const void* object = caught_as<std::system_error>(thrown);
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(caught_as<c10d::DistributedNetworkError>(thrown), object);
  EXPECT_EQ(caught_as<c10d::DistributedError>(thrown), object);
  EXPECT_EQ(caught_as<c10::Error>(thrown), object);
  EXPECT_EQ(caught_as<std::runtime_error>(thrown), object);
  EXPECT_EQ(caught_as<std::exception>(thrown), object);
  try {
    std::rethrow_exception(thrown);
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), std::error_code(ECONNRESET, std::system_category()));
    EXPECT_NE(std::string(e.what()).find("get(\"k\")"), std::string::npos) << e.what();
    EXPECT_STREQ(e.what(), dynamic_cast<const c10::Error&>(e).what());
  }
  // Later calls fail the same way.
  EXPECT_THROW(c->set("k", "v"), std::system_error);
  EXPECT_THROW(c->set("k", "v"), c10d::DistributedError);
}

TEST(C10dErrors, EveryDistributedErrorIsASystemErrorWithACode) {
  const c10d::DistributedTimeoutError timeout("get(\"k\"): timed out after 5 ms");
  EXPECT_EQ(timeout.code(), std::errc::timed_out);
  EXPECT_STREQ(timeout.what(), "get(\"k\"): timed out after 5 ms");
  const c10d::DistributedError failed("allreduce: Gloo error");
  EXPECT_EQ(failed.code().category().name(), std::string("brasa.distributed"));
  EXPECT_EQ(failed.code().value(), 1);
  const c10d::DistributedError copy = failed;  // copies share the message
  EXPECT_STREQ(copy.what(), "allreduce: Gloo error");
}

}  // namespace
