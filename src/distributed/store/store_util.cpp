#include "distributed/store/store_util.h"

#include "brasa/distributed/error.h"
#include "brasa/distributed/store.h"

namespace brasa::distributed {

void Store::watchKey(const std::string& key, WatchKeyCallback /*callback*/) {
  BRASA_THROW(NotImplementedError, "Store::watchKey(\"", key,
              "\"): only TCPStore and a PrefixStore over a TCPStore implement watchKey");
}

void throw_network_error(const std::string& msg, std::error_code code) {
  try {
    throw std::system_error(code, msg);
  } catch (const std::system_error&) {
    throw DistributedNetworkError(msg, code);  // captures the system_error as its nested one
  }
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
