#pragma once
// Test support for the Gloo tests: MemStore (an in-process Store; the lead swaps it for
// HashStore at merge), DirStore (one file per key in a directory, shared by processes), and
// run_ranks (each rank a thread building its own ProcessGroupGloo over loopback TCP).

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "brasa/distributed/process_group_gloo.h"
#include "brasa/distributed/store.h"

namespace brasa_gloo_test {

using namespace brasa;               // NOLINT
using namespace brasa::distributed;  // NOLINT
using std::chrono::milliseconds;

class MemStore : public Store {
 public:
  void set(const std::string& key, const std::vector<uint8_t>& value) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      kv_[key] = value;
    }
    cv_.notify_all();
  }
  std::vector<uint8_t> get(const std::string& key) override {
    wait({key});
    std::lock_guard<std::mutex> lock(mutex_);
    return kv_.at(key);
  }
  int64_t add(const std::string& key, int64_t value) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& v = kv_[key];
    int64_t sum = (v.empty() ? 0 : std::stoll(std::string(v.begin(), v.end()))) + value;
    auto s = std::to_string(sum);
    v.assign(s.begin(), s.end());
    cv_.notify_all();
    return sum;
  }
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                  const std::vector<uint8_t>& desired) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = kv_.find(key);
    if ((it == kv_.end() && expected.empty()) || (it != kv_.end() && it->second == expected)) {
      kv_[key] = desired;
      cv_.notify_all();
      return desired;
    }
    return it == kv_.end() ? expected : it->second;
  }
  bool check(const std::vector<std::string>& keys) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& k : keys) {
      if (!kv_.count(k)) return false;
    }
    return true;
  }
  bool deleteKey(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return kv_.erase(key) > 0;
  }
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys, milliseconds timeout) override {
    std::unique_lock<std::mutex> lock(mutex_);
    auto all = [&] {
      for (const auto& k : keys) {
        if (!kv_.count(k)) return false;
      }
      return true;
    };
    if (!cv_.wait_for(lock, timeout, all)) {
      BRASA_THROW(distributed::DistributedTimeoutError, "MemStore::wait: keys not set within ",
                  timeout.count(), " ms: ", keys.front());
    }
  }
  int64_t getNumKeys() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int64_t>(kv_.size());
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::map<std::string, std::vector<uint8_t>> kv_;
};

/// Keys are files (hex-encoded names) in `dir`, written atomically; get polls every 2 ms.
class DirStore : public Store {
 public:
  explicit DirStore(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void set(const std::string& key, const std::vector<uint8_t>& value) override {
    auto tmp = path(key).string() + ".tmp" + std::to_string(::getpid());
    {
      std::ofstream f(tmp, std::ios::binary);
      f.write(reinterpret_cast<const char*>(value.data()),
              static_cast<std::streamsize>(value.size()));
    }
    std::filesystem::rename(tmp, path(key));
  }
  std::vector<uint8_t> get(const std::string& key) override {
    wait({key});
    std::ifstream f(path(key), std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
  }
  int64_t add(const std::string&, int64_t) override { BRASA_THROW(ValueError, "DirStore::add"); }
  std::vector<uint8_t> compareSet(const std::string&, const std::vector<uint8_t>&,
                                  const std::vector<uint8_t>&) override {
    BRASA_THROW(ValueError, "DirStore::compareSet");
  }
  bool check(const std::vector<std::string>& keys) override {
    for (const auto& k : keys) {
      if (!std::filesystem::exists(path(k))) return false;
    }
    return true;
  }
  bool deleteKey(const std::string& key) override { return std::filesystem::remove(path(key)); }
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys, milliseconds timeout) override {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!check(keys)) {
      if (std::chrono::steady_clock::now() > deadline) {
        BRASA_THROW(distributed::DistributedTimeoutError, "DirStore::wait: timed out on ",
                    keys.front());
      }
      std::this_thread::sleep_for(milliseconds(2));
    }
  }
  int64_t getNumKeys() override { return 0; }

 private:
  std::filesystem::path path(const std::string& key) const {
    static const char* hex = "0123456789abcdef";
    std::string name;
    for (unsigned char c : key) {
      name += hex[c >> 4];
      name += hex[c & 15];
    }
    return dir_ / name;
  }
  std::filesystem::path dir_;
};

inline IntrusivePtr<ProcessGroupGloo::Options> loopback_options(milliseconds timeout) {
  auto opts = ProcessGroupGloo::Options::create(timeout);
  opts->devices.push_back(ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return opts;
}

/// Runs fn(pg, rank) on `n` threads, each with its own group over one MemStore; any exception
/// escaping a rank fails the test with its message.
template <typename F>
void run_ranks(int n, F fn, milliseconds timeout = milliseconds(10000)) {
  auto store = make_intrusive<MemStore>();
  std::vector<std::string> errors(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        ProcessGroupGloo pg(store, r, n, loopback_options(timeout));
        fn(pg, r);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r)
    EXPECT_EQ(errors[static_cast<size_t>(r)], "") << "rank " << r << " of " << n;
}

}  // namespace brasa_gloo_test
