#pragma once
// KvTable: the in-memory key-value map behind HashStore and the TCPStore server: one mutex, one
// condition variable, blocking waits with a deadline, and a stop() that wakes every waiter.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace brasa::distributed::detail {

using Bytes = std::string;  // values are raw bytes; std::string is the cheapest byte buffer here

class KvTable {
 public:
  enum class WaitResult { Ready, TimedOut, Stopped };
  /// Told of every change (key, old value or nullopt, new value or nullopt), under the table's
  /// lock, so observers see changes in order; it must not call back into the table.
  using Observer = std::function<void(const std::string& key, const std::optional<Bytes>& old,
                                      const std::optional<Bytes>& now)>;

  /// Installs the observer; call before the table is shared between threads.
  void set_observer(Observer observer) { observer_ = std::move(observer); }

  void set(const std::string& key, Bytes value);
  /// The value once `key` exists; nullopt on timeout or stop (`result` says which). A zero timeout
  /// waits forever (c10d's kNoTimeout).
  std::optional<Bytes> get(const std::string& key, std::chrono::milliseconds timeout,
                           WaitResult* result = nullptr);
  /// Adds to the decimal integer at `key` (0 when absent); throws ValueError if it is not one.
  int64_t add(const std::string& key, int64_t delta);
  Bytes compare_set(const std::string& key, const Bytes& expected, Bytes desired);
  bool check(const std::vector<std::string>& keys);
  bool erase(const std::string& key);
  int64_t size();
  /// Waits until every key exists; on failure `missing` holds the keys still absent.
  WaitResult wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout,
                  std::vector<std::string>* missing = nullptr);
  /// Wakes all waiters; they return Stopped from now on.
  void stop();

 private:
  bool all_present(const std::vector<std::string>& keys) const;
  WaitResult wait_locked(std::unique_lock<std::mutex>& lock, const std::vector<std::string>& keys,
                         std::chrono::milliseconds timeout);

  void changed(const std::string& key, const std::optional<Bytes>& old,
               const std::optional<Bytes>& now) const {
    if (observer_) observer_(key, old, now);
  }

  Observer observer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::unordered_map<std::string, Bytes> map_;
  bool stopped_ = false;
};

/// Parses the decimal integer stored by add(); throws ValueError naming `key` otherwise.
int64_t parse_counter(const std::string& key, const Bytes& value, const char* store);

}  // namespace brasa::distributed::detail
