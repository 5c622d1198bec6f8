#pragma once
// Helpers shared by the Store implementations: byte conversions and the timeout error text.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace brasa::distributed::detail {

inline std::string to_bytes(const std::vector<uint8_t>& v) {
  return std::string(v.begin(), v.end());
}
inline std::vector<uint8_t> to_vector(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

/// `["a", "b"]`, for error messages.
std::string quote_keys(const std::vector<std::string>& keys);

/// Throws DistributedTimeoutError: "<store>: <op> timed out after <ms> ms waiting for key(s)
/// [...]".
[[noreturn]] void throw_wait_timeout(const std::string& store, const char* op,
                                     const std::vector<std::string>& missing,
                                     std::chrono::milliseconds timeout);

}  // namespace brasa::distributed::detail
