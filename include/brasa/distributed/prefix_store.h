#pragma once
// PrefixStore: a namespaced view of another store; every key becomes `prefix + "/" + key`. Use one
// prefix per run and restart generation so a restarted worker never reads stale keys.
// c10d::PrefixStore.

#include "brasa/distributed/store.h"

namespace brasa::distributed {

class BRASA_API PrefixStore : public Store {
 public:
  /// Shares `store` (and takes its timeout); throws ValueError when it is null.
  PrefixStore(std::string prefix, IntrusivePtr<Store> store);

  using Store::set;
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                  const std::vector<uint8_t>& desired) override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) override;
  /// The underlying store's timeout: setting it here sets it there (as in c10d).
  const std::chrono::milliseconds& getTimeout() const noexcept override;
  void setTimeout(const std::chrono::milliseconds& timeout) override;
  /// Watches `prefix/key` on the underlying store.
  void watchKey(const std::string& key, WatchKeyCallback callback) override;
  /// The number of keys of the underlying store (all prefixes), like c10d.
  int64_t getNumKeys() override;

  IntrusivePtr<Store> getUnderlyingStore() const { return store_; }
  const std::string& prefix() const noexcept { return prefix_; }

 private:
  std::string joined(const std::string& key) const { return prefix_ + "/" + key; }
  std::vector<std::string> joined(const std::vector<std::string>& keys) const;

  std::string prefix_;
  IntrusivePtr<Store> store_;
};

}  // namespace brasa::distributed
