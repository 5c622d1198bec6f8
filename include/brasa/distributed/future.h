#pragma once
// Future: a value that becomes available later, with callbacks (c10::ivalue::Future). A Work's
// getFuture() completes with the op's output tensors (a list IValue) or with its error.
// Callbacks run on the thread that completes the future, or at once on the caller's thread when
// it has already completed.

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/core/intrusive_ptr.h"

namespace brasa::distributed {

/// The declared type of a future's value: libtorch passes a c10::TypePtr to then(); brasa keeps
/// its name only (values are checked by the IValue accessors).
struct FutureValueType {
  std::string name;
};
using TypePtr = std::shared_ptr<const FutureValueType>;

class BRASA_API Future : public RefCounted {
 public:
  explicit Future(TypePtr type = nullptr) : type_(std::move(type)) {}
  Future(const Future&) = delete;
  Future& operator=(const Future&) = delete;

  /// Blocks until completed (value or error); does not throw the error.
  void wait();
  /// Blocks until completed, rethrows the error, returns the value.
  IValue value();
  /// The value of a future that completed without error (ValueError otherwise).
  const IValue& constValue() const;
  bool completed() const;
  bool hasValue() const;
  bool hasError() const;
  std::exception_ptr exception_ptr() const;
  /// The error's what() (ValueError when there is no error).
  std::string tryRetrieveErrorMessage() const;
  TypePtr elementType() const { return type_; }

  /// Completes with `value` and runs the callbacks. ValueError if already completed.
  void markCompleted(IValue value = IValue());
  /// Completes with `error` and runs the callbacks. ValueError if already completed.
  void setError(std::exception_ptr error);

  /// Runs `callback(*this)` once completed (now, when it already is).
  void addCallback(std::function<void(Future&)> callback);
  /// A future completed with `callback(*this)`'s result once this one completes, or with the
  /// exception the callback throws (a callback that reads value() of a failed future forwards the
  /// error).
  template <typename F>
  IntrusivePtr<Future> then(F callback, TypePtr type = nullptr) {
    static_assert(std::is_invocable_r_v<IValue, F, Future&>,
                  "Future::then: the callback must have the signature IValue(Future&)");
    auto child = make_intrusive<Future>(std::move(type));
    addCallback([child, cb = std::move(callback)](Future& parent) mutable {
      try {
        child->markCompleted(cb(parent));
      } catch (...) {
        child->setError(std::current_exception());
      }
    });
    return child;
  }

 private:
  void complete(IValue value, std::exception_ptr error);

  TypePtr type_;
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool completed_ = false;
  IValue value_;
  std::exception_ptr error_;
  std::vector<std::function<void(Future&)>> callbacks_;
};

}  // namespace brasa::distributed
