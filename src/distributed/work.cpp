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

int Work::sourceRank() const {
  std::lock_guard<std::mutex> lock(mutex_);
  BRASA_CHECK(source_rank_ >= 0, "Work::sourceRank: expected the Work of a recv or of a completed ",
              "recvAnysource, got ", op_name_.empty() ? "another op" : op_name_);
  return source_rank_;
}

void Work::set_source_rank(int rank) {
  std::lock_guard<std::mutex> lock(mutex_);
  source_rank_ = rank;
}

void Work::abort() {
  BRASA_THROW(NotImplementedError, "Work::abort: ", op_name_.empty() ? "this op" : op_name_,
              " cannot be aborted (only ProcessGroupGloo's send and recv can)");
}

IntrusivePtr<Future> Work::getFuture() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (future_) return future_;
  future_ = make_intrusive<Future>(std::make_shared<const FutureValueType>("List[Tensor]"));
  if (!completed_) return future_;
  // Already finished: complete the new future here (finish() completes it otherwise).
  auto future = future_;
  auto error = error_;
  auto outputs = outputs_;
  lock.unlock();
  if (error) {
    future->setError(error);
  } else {
    future->markCompleted(IValue(outputs));
  }
  return future;
}

void Work::finish(std::exception_ptr error) {
  IntrusivePtr<Future> future;
  std::vector<Tensor> outputs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (completed_) return;  // the first completion wins (Note [Lost peers])
    completed_ = true;
    error_ = error;
    future = future_;
    if (future) outputs = outputs_;
  }
  done_cv_.notify_all();
  if (!future) return;
  if (error) {
    future->setError(std::move(error));
  } else {
    future->markCompleted(IValue(outputs));
  }
}

IntrusivePtr<Work> ProcessGroup::recvAnysource(std::vector<Tensor>& /*tensors*/, int /*tag*/) {
  BRASA_THROW(NotImplementedError, "ProcessGroup::recvAnysource: the ", getBackendName(),
              " backend does not support recvAnysource (the mpi backend does)");
}

void ProcessGroup::monitoredBarrier(const BarrierOptions& /*opts*/, bool /*waitAllRanks*/) {
  BRASA_THROW(NotImplementedError, "ProcessGroup::monitoredBarrier: the ", getBackendName(),
              " backend does not support monitoredBarrier (the gloo backend does)");
}

void ProcessGroup::setSequenceNumberForGroup() {
  BRASA_THROW(NotImplementedError, "ProcessGroup::setSequenceNumberForGroup: the ",
              getBackendName(),
              " backend does not support sequence numbers (the gloo backend does)");
}

uint64_t ProcessGroup::getSequenceNumberForGroup() {
  BRASA_THROW(NotImplementedError, "ProcessGroup::getSequenceNumberForGroup: the ",
              getBackendName(),
              " backend does not support sequence numbers (the gloo backend does)");
}

}  // namespace brasa::distributed
