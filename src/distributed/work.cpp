// Work: completion, errors and waiting with a timeout.

#include "brasa/distributed/process_group.h"

namespace brasa::distributed {

const char* to_string(ReduceOp::RedOpType op) {
  switch (op) {
    case ReduceOp::SUM: return "SUM";
    case ReduceOp::AVG: return "AVG";
    case ReduceOp::PRODUCT: return "PRODUCT";
    case ReduceOp::MIN: return "MIN";
    case ReduceOp::MAX: return "MAX";
  }
  return "?";
}

bool Work::isCompleted() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_;
}

bool Work::isSuccess() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ && !error_;
}

std::exception_ptr Work::exception() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

bool Work::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (timeout == kNoTimeout) {
    done_cv_.wait(lock, [this] { return completed_; });
  } else if (!done_cv_.wait_for(lock, timeout, [this] { return completed_; })) {
    BRASA_THROW(distributed::DistributedTimeoutError,
                "Work::wait: ", op_name_.empty() ? "the operation" : op_name_,
                " did not finish within ", timeout.count(), " ms");
  }
  if (error_) std::rethrow_exception(error_);
  return true;
}

std::vector<Tensor> Work::result() {
  std::lock_guard<std::mutex> lock(mutex_);
  return outputs_;
}

void Work::finish(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    completed_ = true;
    error_ = std::move(error);
  }
  done_cv_.notify_all();
}

}  // namespace brasa::distributed
