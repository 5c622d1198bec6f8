#include "distributed/store/kv_table.h"

#include <charconv>
#include <utility>

#include "brasa/core/error.h"

namespace brasa::distributed::detail {

int64_t parse_counter(const std::string& key, const Bytes& value, const char* store) {
  int64_t v = 0;
  const char* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, v);
  BRASA_CHECK(ec == std::errc() && ptr == end && !value.empty(), store, ": add(\"", key,
              "\"): the stored value \"", value, "\" is not a decimal integer");
  return v;
}

void KvTable::set(const std::string& key, Bytes value) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(key);
    std::optional<Bytes> old;
    if (it != map_.end()) old = std::move(it->second);
    Bytes& slot = map_[key];
    slot = std::move(value);
    changed(key, old, slot);
  }
  changed_.notify_all();
}

bool KvTable::all_present(const std::vector<std::string>& keys) const {
  for (const auto& k : keys) {
    if (map_.find(k) == map_.end()) return false;
  }
  return true;
}

KvTable::WaitResult KvTable::wait_locked(std::unique_lock<std::mutex>& lock,
                                         const std::vector<std::string>& keys,
                                         std::chrono::milliseconds timeout) {
  auto done = [&] { return stopped_ || all_present(keys); };
  if (timeout.count() <= 0) {
    changed_.wait(lock, done);
  } else if (!changed_.wait_until(lock, std::chrono::steady_clock::now() + timeout, done)) {
    return WaitResult::TimedOut;
  }
  return all_present(keys) ? WaitResult::Ready : WaitResult::Stopped;
}

std::optional<Bytes> KvTable::get(const std::string& key, std::chrono::milliseconds timeout,
                                  WaitResult* result) {
  std::unique_lock<std::mutex> lock(mutex_);
  WaitResult r = wait_locked(lock, {key}, timeout);
  if (result) *result = r;
  if (r != WaitResult::Ready) return std::nullopt;
  return map_.at(key);
}

int64_t KvTable::add(const std::string& key, int64_t delta) {
  int64_t sum = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(key);
    int64_t old = it == map_.end() ? 0 : parse_counter(key, it->second, "store");
    sum = static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(delta));
    std::optional<Bytes> before;
    if (it != map_.end()) before = it->second;
    map_[key] = std::to_string(sum);
    changed(key, before, map_[key]);
  }
  changed_.notify_all();
  return sum;
}

Bytes KvTable::compare_set(const std::string& key, const Bytes& expected, Bytes desired) {
  Bytes now;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(key);
    if (it == map_.end()) {
      if (!expected.empty()) return expected;  // c10d: an absent key "has" the expected value
      now = map_[key] = std::move(desired);
      changed(key, std::nullopt, now);
    } else {
      if (it->second == expected) {
        Bytes old = std::exchange(it->second, std::move(desired));
        changed(key, old, it->second);
      }
      now = it->second;
    }
  }
  changed_.notify_all();
  return now;
}

bool KvTable::check(const std::vector<std::string>& keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  return all_present(keys);
}

bool KvTable::erase(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = map_.find(key);
  if (it == map_.end()) return false;
  Bytes old = std::move(it->second);
  map_.erase(it);
  changed(key, old, std::nullopt);
  return true;
}

int64_t KvTable::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(map_.size());
}

KvTable::WaitResult KvTable::wait(const std::vector<std::string>& keys,
                                  std::chrono::milliseconds timeout,
                                  std::vector<std::string>* missing) {
  std::unique_lock<std::mutex> lock(mutex_);
  WaitResult r = wait_locked(lock, keys, timeout);
  if (r != WaitResult::Ready && missing) {
    missing->clear();
    for (const auto& k : keys) {
      if (map_.find(k) == map_.end()) missing->push_back(k);
    }
  }
  return r;
}

void KvTable::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  changed_.notify_all();
}

}  // namespace brasa::distributed::detail
