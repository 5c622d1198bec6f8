#include "brasa/distributed/prefix_store.h"

namespace brasa::distributed {

PrefixStore::PrefixStore(std::string prefix, IntrusivePtr<Store> store)
    : Store(store ? store->getTimeout() : kDefaultTimeout),
      prefix_(std::move(prefix)),
      store_(std::move(store)) {
  BRASA_CHECK(store_, "PrefixStore(\"", prefix_, "\"): the underlying store is null");
}

std::vector<std::string> PrefixStore::joined(const std::vector<std::string>& keys) const {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const auto& k : keys) out.push_back(joined(k));
  return out;
}

void PrefixStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  store_->set(joined(key), value);
}

std::vector<uint8_t> PrefixStore::get(const std::string& key) { return store_->get(joined(key)); }

int64_t PrefixStore::add(const std::string& key, int64_t value) {
  return store_->add(joined(key), value);
}

std::vector<uint8_t> PrefixStore::compareSet(const std::string& key,
                                             const std::vector<uint8_t>& expected,
                                             const std::vector<uint8_t>& desired) {
  return store_->compareSet(joined(key), expected, desired);
}

bool PrefixStore::check(const std::vector<std::string>& keys) {
  return store_->check(joined(keys));
}

bool PrefixStore::deleteKey(const std::string& key) { return store_->deleteKey(joined(key)); }

void PrefixStore::wait(const std::vector<std::string>& keys) { store_->wait(joined(keys)); }

void PrefixStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  store_->wait(joined(keys), timeout);
}

const std::chrono::milliseconds& PrefixStore::getTimeout() const noexcept {
  return store_->getTimeout();
}

void PrefixStore::setTimeout(const std::chrono::milliseconds& timeout) {
  timeout_ = timeout;
  store_->setTimeout(timeout);
}

void PrefixStore::watchKey(const std::string& key, WatchKeyCallback callback) {
  store_->watchKey(joined(key), std::move(callback));
}

int64_t PrefixStore::getNumKeys() { return store_->getNumKeys(); }

}  // namespace brasa::distributed
