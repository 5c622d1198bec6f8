#pragma once
// WorkerException: an exception thrown inside a data loader worker, rethrown on the caller.

#include <exception>
#include <string>

namespace brasa::data {

/// what() says it came from a worker and repeats the original message; original_exception can be
/// rethrown to get the original type.
struct WorkerException : public std::exception {
  explicit WorkerException(std::exception_ptr original)
      : original_exception(std::move(original)),
        message("Caught exception in DataLoader worker thread.") {
    try {
      std::rethrow_exception(original_exception);
    } catch (const std::exception& e) {
      message += " Original message: ";
      message += e.what();
    } catch (...) {
    }
  }
  const char* what() const noexcept override { return message.c_str(); }

  std::exception_ptr original_exception;
  std::string message;
};

}  // namespace brasa::data
