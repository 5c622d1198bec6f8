#pragma once
// Errors of distributed training: a failed or lost peer, a broken store connection, a timeout.

#include <exception>
#include <string>
#include <system_error>

#include "brasa/core/error.h"

namespace brasa::distributed {

/// A collective, store operation or peer failed; the message names the operation, the ranks and
/// the cause (c10d::DistBackendError / DistStoreError).
class BRASA_API DistributedError : public Error {
 public:
  using Error::Error;
};
/// An operation did not finish within its timeout; the message names it and the timeout.
class BRASA_API DistributedTimeoutError : public DistributedError {
 public:
  using DistributedError::DistributedError;
};

/// A connection broke: the TCPStore's server went away, a peer's socket was reset. code() is the
/// system error (ECONNRESET when the peer closed the connection), and the std::system_error that
/// libtorch 1.13 raises in these places is attached as the nested exception:
/// `std::rethrow_if_nested(e)` throws it. (The error cannot also derive from std::system_error:
/// both bases hold a std::runtime_error, and `catch (const std::exception&)` would then match
/// neither. Note [Distributed errors] in docs/distributed.md.)
class BRASA_API DistributedNetworkError : public DistributedError, public std::nested_exception {
 public:
  DistributedNetworkError(const std::string& msg, std::error_code code)
      : DistributedError(msg), code_(code) {}
  const std::error_code& code() const noexcept { return code_; }

 private:
  std::error_code code_;
};

/// Throws DistributedNetworkError(msg, code) with a std::system_error(code, msg) nested in it.
[[noreturn]] BRASA_API void throw_network_error(const std::string& msg, std::error_code code);

}  // namespace brasa::distributed
