#pragma once
// Errors of distributed training: a failed or lost peer, a broken store connection, a timeout.

#include <memory>
#include <string>
#include <system_error>

#include "brasa/core/error.h"

namespace brasa::distributed {

/// The std::error_category of DistributedError codes that are not system errors (name
/// "brasa.distributed"; value 1: an operation failed).
BRASA_API const std::error_category& distributed_category() noexcept;

/// A collective, store operation or peer failed; the message names the operation, the ranks and
/// the cause (c10d::DistBackendError / DistStoreError). Also a std::system_error (and so a
/// std::runtime_error), as libtorch 1.13 raises where a peer or the TCPStore's server went away:
/// code() is the errno of a broken connection, std::errc::timed_out for a timeout, else
/// {1, distributed_category()}. what() is the message alone (Note [Error hierarchy]).
class BRASA_API DistributedError : public Error, public std::system_error {
 public:
  explicit DistributedError(const std::string& msg)
      : DistributedError(msg, std::error_code(1, distributed_category())) {}
  DistributedError(const std::string& msg, std::error_code code)
      : std::system_error(code), message_(std::make_shared<const std::string>(msg)) {}
  const char* what() const noexcept override { return message_->c_str(); }

 private:
  std::shared_ptr<const std::string> message_;  // shared: copying an exception must not throw
};
/// An operation did not finish within its timeout; the message names it and the timeout. code()
/// is std::errc::timed_out.
class BRASA_API DistributedTimeoutError : public DistributedError {
 public:
  explicit DistributedTimeoutError(const std::string& msg)
      : DistributedError(msg, std::make_error_code(std::errc::timed_out)) {}
};

/// A connection broke: the TCPStore's server went away, a peer's socket was reset. code() is the
/// system error (ECONNRESET when the peer closed the connection), as in the std::system_error
/// libtorch 1.13 raises there: `catch (const std::system_error& e)` catches this error itself.
class BRASA_API DistributedNetworkError : public DistributedError {
 public:
  DistributedNetworkError(const std::string& msg, std::error_code code)
      : DistributedError(msg, code) {}
};

/// Throws DistributedNetworkError(msg, code).
[[noreturn]] BRASA_API void throw_network_error(const std::string& msg, std::error_code code);

}  // namespace brasa::distributed
