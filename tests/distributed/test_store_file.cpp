// FileStore in one process: operations, several instances on one file, timeouts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "brasa/distributed/file_store.h"

namespace brasa::distributed {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::vector<uint8_t> b(const std::string& s) { return {s.begin(), s.end()}; }

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/brasa_filestore_XXXXXX";
    path = ::mkdtemp(t) ? t : "";
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST(FileStoreTest, Operations) {
  TempDir dir;
  FileStore s(dir.path + "/f", 1);
  std::vector<uint8_t> bin{0, 1, 0, 255};
  s.set("bin", bin);
  EXPECT_EQ(s.get("bin"), bin);
  s.set("bin", b("replaced"));
  EXPECT_EQ(s.get_string("bin"), "replaced");
  EXPECT_EQ(s.add("n", 5), 5);
  EXPECT_EQ(s.add("n", -7), -2);
  EXPECT_EQ(s.compareSet("x", {}, b("v")), b("v"));
  EXPECT_EQ(s.compareSet("y", b("e"), b("v")), b("e"));
  EXPECT_EQ(s.compareSet("x", b("nope"), b("w")), b("v"));
  EXPECT_EQ(s.compareSet("x", b("v"), b("w")), b("w"));
  EXPECT_TRUE(s.check({"bin", "x", "n"}));
  EXPECT_FALSE(s.check({"y"}));
  EXPECT_EQ(s.getNumKeys(), 3);
  EXPECT_TRUE(s.deleteKey("bin"));
  EXPECT_FALSE(s.deleteKey("bin"));
  EXPECT_EQ(s.getNumKeys(), 2);
  EXPECT_THROW(s.add("x", 1), ValueError);
  EXPECT_EQ(s.getPath(), dir.path + "/f");
}

TEST(FileStoreTest, InstancesShareTheFileAndTheLastRemovesIt) {
  TempDir dir;
  const std::string path = dir.path + "/f";
  {
    FileStore a(path, 2);
    a.setTimeout(5000ms);
    {
      FileStore b2(path, 2);
      std::thread t([&] {
        std::this_thread::sleep_for(50ms);
        b2.set("late", "v");
        b2.deleteKey("gone");
      });
      a.set("gone", "1");
      EXPECT_EQ(a.get_string("late"), "v");
      t.join();
      EXPECT_FALSE(a.check({"gone"}));
    }
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(FileStoreTest, GetTimesOutNamingTheKey) {
  TempDir dir;
  FileStore s(dir.path + "/f", 1);
  s.setTimeout(300ms);
  auto t0 = Clock::now();
  try {
    s.get("absent");
    FAIL() << "get did not time out";
  } catch (const DistributedTimeoutError& e) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    EXPECT_GE(ms, 300);
    EXPECT_LE(ms, 330 + 50);
    EXPECT_NE(
        std::string(e.what()).find("get timed out after 300 ms waiting for key(s) [\"absent\"]"),
        std::string::npos)
        << e.what();
  }
}

TEST(FileStoreTest, UnopenablePathThrows) {
  EXPECT_THROW(FileStore("/nonexistent_dir_brasa/x/f", 1), DistributedError);
}

}  // namespace
}  // namespace brasa::distributed
