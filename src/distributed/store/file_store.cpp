#include "brasa/distributed/file_store.h"

#include <unistd.h>

#include <optional>
#include <thread>

#include "distributed/store/file_log.h"
#include "distributed/store/kv_table.h"
#include "distributed/store/store_util.h"

namespace brasa::distributed {

using detail::FileLog;
using detail::to_bytes;
using detail::to_vector;

namespace {
constexpr std::chrono::milliseconds kPollInterval{5};
const std::string kCleanupKey = "cleanup/";

void poll_until_set(FileLog& log, const std::string& path, const char* op,
                    const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::string> missing;
  while (true) {
    missing.clear();
    log.read([&](const FileLog::Map& m) {
      for (const auto& k : keys) {
        if (!m.count(k)) missing.push_back(k);
      }
    });
    if (missing.empty()) return;
    auto now = std::chrono::steady_clock::now();
    if (timeout.count() > 0 && now >= deadline) {
      detail::throw_wait_timeout("FileStore (" + path + ")", op, missing, timeout);
    }
    auto pause = timeout.count() > 0
                     ? std::min<std::chrono::steady_clock::duration>(kPollInterval, deadline - now)
                     : kPollInterval;
    std::this_thread::sleep_for(pause);
  }
}
}  // namespace

FileStore::FileStore(const std::string& path, int numWorkers)
    : path_(path), num_workers_(numWorkers), log_(std::make_unique<FileLog>(path)) {}

FileStore::~FileStore() {
  if (num_workers_ <= 0) return;
  try {
    if (add(kCleanupKey, 1) >= num_workers_) ::unlink(path_.c_str());
  } catch (
      ...) {  // NOLINT(bugprone-empty-catch): a destructor must not throw; cleanup is best effort
  }
}

void FileStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  log_->write([&](const FileLog::Map&) { return FileLog::Edit{'S', key, to_bytes(value)}; });
}

std::vector<uint8_t> FileStore::get(const std::string& key) {
  // A key deleted between the wait and the read is waited for again.
  while (true) {
    poll_until_set(*log_, path_, "get", {key}, timeout_);
    std::optional<std::string> value;
    log_->read([&](const FileLog::Map& m) {
      auto it = m.find(key);
      if (it != m.end()) value = it->second;
    });
    if (value) return to_vector(*value);
  }
}

int64_t FileStore::add(const std::string& key, int64_t value) {
  int64_t sum = 0;
  log_->write([&](const FileLog::Map& m) {
    auto it = m.find(key);
    int64_t old = it == m.end() ? 0 : detail::parse_counter(key, it->second, "FileStore");
    sum = static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(value));
    return FileLog::Edit{'S', key, std::to_string(sum)};
  });
  return sum;
}

std::vector<uint8_t> FileStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expected,
                                           const std::vector<uint8_t>& desired) {
  std::string now;
  log_->write([&](const FileLog::Map& m) {
    auto it = m.find(key);
    if (it == m.end() ? expected.empty() : it->second == to_bytes(expected)) {
      now = to_bytes(desired);
      return FileLog::Edit{'S', key, now};
    }
    now = it == m.end() ? to_bytes(expected) : it->second;
    return FileLog::Edit{};
  });
  return to_vector(now);
}

bool FileStore::check(const std::vector<std::string>& keys) {
  bool all = true;
  log_->read([&](const FileLog::Map& m) {
    for (const auto& k : keys) all = all && m.count(k) > 0;
  });
  return all;
}

bool FileStore::deleteKey(const std::string& key) {
  bool existed = false;
  log_->write([&](const FileLog::Map& m) {
    existed = m.count(key) > 0;
    return existed ? FileLog::Edit{'D', key, {}} : FileLog::Edit{};
  });
  return existed;
}

void FileStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void FileStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  poll_until_set(*log_, path_, "wait", keys, timeout);
}

int64_t FileStore::getNumKeys() {
  int64_t n = 0;
  log_->read([&](const FileLog::Map& m) { n = static_cast<int64_t>(m.size()); });
  return n;
}

}  // namespace brasa::distributed
