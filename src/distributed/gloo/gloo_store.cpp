// GlooStore: byte conversions between Gloo's char vectors and the Store's uint8_t vectors.

#include "distributed/gloo/gloo_store.h"

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
