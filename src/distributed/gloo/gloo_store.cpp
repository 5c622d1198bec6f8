// GlooStore: byte conversions between Gloo's char vectors and the Store's uint8_t vectors.

#include "distributed/gloo/gloo_store.h"

#include "brasa/distributed/process_group_gloo.h"

namespace brasa::distributed::gloo_backend {

void GlooStore::set(const std::string& key, const std::vector<char>& data) {
  store_->set(key, std::vector<uint8_t>(data.begin(), data.end()));
}

std::vector<char> GlooStore::get(const std::string& key) {
  auto value = store_->get(key);
  return std::vector<char>(value.begin(), value.end());
}

void GlooStore::wait(const std::vector<std::string>& keys) { store_->wait(keys); }

void GlooStore::wait(const std::vector<std::string>& keys,
                     const std::chrono::milliseconds& timeout) {
  store_->wait(keys, timeout);
}

}  // namespace brasa::distributed::gloo_backend

namespace brasa::distributed {

ProcessGroupGloo::GlooStore::GlooStore(const IntrusivePtr<Store>& store) : store_(store) {
  BRASA_CHECK(store_, "ProcessGroupGloo::GlooStore: the store is null");
}

void ProcessGroupGloo::GlooStore::setUint(const std::string& key,
                                          const std::vector<uint8_t>& value) {
  store_->set(key, value);
}

void ProcessGroupGloo::GlooStore::set(const std::string& key, const std::vector<char>& value) {
  store_->set(key, std::vector<uint8_t>(value.begin(), value.end()));
}

std::vector<uint8_t> ProcessGroupGloo::GlooStore::getUint(const std::string& key) {
  return store_->get(key);
}

std::vector<char> ProcessGroupGloo::GlooStore::get(const std::string& key) {
  auto value = store_->get(key);
  return std::vector<char>(value.begin(), value.end());
}

void ProcessGroupGloo::GlooStore::wait(const std::vector<std::string>& keys) {
  store_->wait(keys, Store::kDefaultTimeout);
}

void ProcessGroupGloo::GlooStore::wait(const std::vector<std::string>& keys,
                                       const std::chrono::milliseconds& timeout) {
  store_->wait(keys, timeout);
}

}  // namespace brasa::distributed
