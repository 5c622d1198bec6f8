// Future: completion, waiting and callbacks.

#include "brasa/distributed/future.h"

namespace brasa::distributed {

void Future::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [this] { return completed_; });
}

IValue Future::value() {
  wait();
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_) std::rethrow_exception(error_);
  return value_;
}

const IValue& Future::constValue() const {
  std::lock_guard<std::mutex> lock(mutex_);
  BRASA_CHECK(completed_ && !error_,
              "Future::constValue: expected a future completed without error, got ",
              completed_ ? "one that failed" : "one still running");
  return value_;
}

bool Future::completed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_;
}

bool Future::hasValue() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ && !error_;
}

bool Future::hasError() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_ != nullptr;
}

std::exception_ptr Future::exception_ptr() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

std::string Future::tryRetrieveErrorMessage() const {
  auto error = exception_ptr();
  BRASA_CHECK(error, "Future::tryRetrieveErrorMessage: the future has no error");
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

void Future::markCompleted(IValue value) { complete(std::move(value), nullptr); }

void Future::setError(std::exception_ptr error) {
  BRASA_CHECK(error, "Future::setError: the error is null");
  complete(IValue(), std::move(error));
}

void Future::complete(IValue value, std::exception_ptr error) {
  std::vector<std::function<void(Future&)>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    BRASA_CHECK(!completed_, "Future::", error ? "setError" : "markCompleted",
                ": expected a future that has not completed, got one that has");
    completed_ = true;
    value_ = std::move(value);
    error_ = std::move(error);
    callbacks.swap(callbacks_);
  }
  done_cv_.notify_all();
  for (auto& cb : callbacks) cb(*this);
}

void Future::addCallback(std::function<void(Future&)> callback) {
  BRASA_CHECK(callback, "Future::addCallback: the callback is empty");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!completed_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback(*this);
}

}  // namespace brasa::distributed
