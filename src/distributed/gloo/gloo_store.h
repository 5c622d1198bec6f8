#pragma once
// GlooStore: gloo::rendezvous::Store over a brasa::distributed::Store (the rendezvous of Gloo's
// contexts goes through the group's store). get blocks up to the store's timeout.

#include <gloo/rendezvous/store.h>

#include "brasa/distributed/store.h"

namespace brasa::distributed::gloo_backend {

class GlooStore : public ::gloo::rendezvous::Store {
 public:
  explicit GlooStore(IntrusivePtr<distributed::Store> store) : store_(std::move(store)) {}

  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

 private:
  IntrusivePtr<distributed::Store> store_;
};

}  // namespace brasa::distributed::gloo_backend
