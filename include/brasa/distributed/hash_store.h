#pragma once
// HashStore: a Store inside one process (threads rendezvous through it; tests, single-process
// groups). c10d::HashStore.

#include <memory>

#include "brasa/distributed/store.h"

namespace brasa::distributed {

namespace detail {
class KvTable;
}

class BRASA_API HashStore : public Store {
 public:
  HashStore();
  ~HashStore() override;

  using Store::set;
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  /// Waits up to getTimeout() for `key` (DistributedTimeoutError naming the key).
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                  const std::vector<uint8_t>& desired) override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) override;
  int64_t getNumKeys() override;

 private:
  std::unique_ptr<detail::KvTable> table_;
};

}  // namespace brasa::distributed
