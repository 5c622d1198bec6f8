#include "brasa/distributed/hash_store.h"

#include "distributed/store/kv_table.h"
#include "distributed/store/store_util.h"

namespace brasa::distributed {

using detail::to_bytes;
using detail::to_vector;

HashStore::HashStore() : table_(std::make_unique<detail::KvTable>()) {}
HashStore::~HashStore() = default;

void HashStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  table_->set(key, to_bytes(value));
}

std::vector<uint8_t> HashStore::get(const std::string& key) {
  auto v = table_->get(key, timeout_);
  if (!v) detail::throw_wait_timeout("HashStore", "get", {key}, timeout_);
  return to_vector(*v);
}

int64_t HashStore::add(const std::string& key, int64_t value) { return table_->add(key, value); }

std::vector<uint8_t> HashStore::compareSet(const std::string& key,
                                           const std::vector<uint8_t>& expected,
                                           const std::vector<uint8_t>& desired) {
  return to_vector(table_->compare_set(key, to_bytes(expected), to_bytes(desired)));
}

bool HashStore::check(const std::vector<std::string>& keys) { return table_->check(keys); }

bool HashStore::deleteKey(const std::string& key) { return table_->erase(key); }

void HashStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void HashStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  std::vector<std::string> missing;
  if (table_->wait(keys, timeout, &missing) != detail::KvTable::WaitResult::Ready) {
    detail::throw_wait_timeout("HashStore", "wait", missing, timeout);
  }
}

int64_t HashStore::getNumKeys() { return table_->size(); }

}  // namespace brasa::distributed
