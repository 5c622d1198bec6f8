#pragma once
// Store: the key-value store processes rendezvous through (c10d::Store). Implementations: TCPStore
// (a server in one process, clients everywhere), FileStore (a shared file), HashStore (in one
// process) and PrefixStore (a namespaced view, e.g. per run and restart generation).

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "brasa/core/intrusive_ptr.h"
#include "brasa/core/macros.h"
#include "brasa/distributed/error.h"

namespace brasa::distributed {

/// Called with (old value, new value) when a watched key changes: (nullopt, new) on create,
/// (old, new) on update, (old, nullopt) on delete (c10d::WatchKeyCallback).
using WatchKeyCallback =
    std::function<void(std::optional<std::string> oldValue, std::optional<std::string> newValue)>;

class BRASA_API Store : public RefCounted {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{300000};
  static constexpr std::chrono::milliseconds kNoTimeout{0};

  explicit Store(std::chrono::milliseconds timeout = kDefaultTimeout) : timeout_(timeout) {}
  ~Store() override = default;

  /// Sets `key` (replacing its value); wakes waiters.
  virtual void set(const std::string& key, const std::vector<uint8_t>& value) = 0;
  /// The value of `key`, waiting up to timeout() for it to be set (DistributedTimeoutError
  /// naming the key and the timeout).
  virtual std::vector<uint8_t> get(const std::string& key) = 0;
  /// Adds `value` to the integer stored at `key` (0 when absent, stored as decimal text) and
  /// returns the sum, atomically.
  virtual int64_t add(const std::string& key, int64_t value) = 0;
  /// Sets `key` to `desired` if its value equals `expected` (or, with an empty `expected`, if it
  /// is absent); returns the value after the operation.
  virtual std::vector<uint8_t> compareSet(const std::string& key,
                                          const std::vector<uint8_t>& expected,
                                          const std::vector<uint8_t>& desired) = 0;
  /// Whether all `keys` are set (does not wait).
  virtual bool check(const std::vector<std::string>& keys) = 0;
  /// Removes `key`; returns whether it existed.
  virtual bool deleteKey(const std::string& key) = 0;
  /// Waits until all `keys` are set: up to timeout() or the given timeout (DistributedTimeoutError
  /// naming the missing keys).
  virtual void wait(const std::vector<std::string>& keys) = 0;
  virtual void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) = 0;
  virtual int64_t getNumKeys() = 0;

  /// The timeout of get and wait. A wrapper store (PrefixStore) reports and sets the timeout of
  /// the store beneath it, so a timeout set on the outermost store is the one that applies.
  virtual const std::chrono::milliseconds& getTimeout() const noexcept { return timeout_; }
  virtual void setTimeout(const std::chrono::milliseconds& timeout) { timeout_ = timeout; }

  /// Calls `callback` on every later change of `key` (create, update, delete), from a thread of
  /// the store, until the store is destroyed. TCPStore and a PrefixStore over one implement it;
  /// others throw NotImplementedError.
  virtual void watchKey(const std::string& key, WatchKeyCallback callback);

  /// Text conveniences over set/get.
  void set(const std::string& key, const std::string& value) {
    set(key, std::vector<uint8_t>(value.begin(), value.end()));
  }
  std::string get_string(const std::string& key) {
    auto v = get(key);
    return std::string(v.begin(), v.end());
  }

 protected:
  std::chrono::milliseconds timeout_;
};

}  // namespace brasa::distributed
