#include "distributed/store/store_util.h"

#include "brasa/distributed/error.h"
#include "brasa/distributed/store.h"

namespace brasa::distributed {

void Store::watchKey(const std::string& key, WatchKeyCallback /*callback*/) {
  BRASA_THROW(NotImplementedError, "Store::watchKey(\"", key,
              "\"): only TCPStore and a PrefixStore over a TCPStore implement watchKey");
}

void throw_network_error(const std::string& msg, std::error_code code) {
  throw DistributedNetworkError(msg, code);
}

const std::error_category& distributed_category() noexcept {
  struct Category : std::error_category {
    const char* name() const noexcept override { return "brasa.distributed"; }
    std::string message(int value) const override {
      return value == 1 ? "a distributed operation failed"
                        : "distributed error " + std::to_string(value);
    }
  };
  // Note [Immortal error category]: never destroyed. A worker thread the process group detached
  // (Note [Lost peers]) can still raise a DistributedError while the process exits, after the
  // static destructors ran; a destroyed category there was a call through a dead vtable.
  static const Category* const category = new Category;
  return *category;
}

}  // namespace brasa::distributed

namespace brasa::distributed::detail {

std::string quote_keys(const std::vector<std::string>& keys) {
  std::string s = "[";
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i) s += ", ";
    s += "\"" + keys[i] + "\"";
  }
  return s + "]";
}

void throw_wait_timeout(const std::string& store, const char* op,
                        const std::vector<std::string>& missing,
                        std::chrono::milliseconds timeout) {
  throw DistributedTimeoutError(store + ": " + op + " timed out after " +
                                std::to_string(timeout.count()) + " ms waiting for key(s) " +
                                quote_keys(missing));
}

}  // namespace brasa::distributed::detail
