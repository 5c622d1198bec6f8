#pragma once
// ProcessGroup (c10d::ProcessGroup): collectives over the ranks of a group, each returning a Work
// handle that completes asynchronously. Backends: ProcessGroupGloo (TCP), ProcessGroupMPI. Every
// rank must issue the same collectives in the same order. Method names are libtorch's.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "brasa/core/intrusive_ptr.h"
#include "brasa/core/tensor.h"
#include "brasa/distributed/error.h"
#include "brasa/distributed/future.h"

namespace brasa::distributed {

constexpr std::chrono::milliseconds kUnsetTimeout{-1};
constexpr std::chrono::milliseconds kNoTimeout{0};

/// c10d::ReduceOp; AVG divides the sum by the group size (integers: truncating).
struct ReduceOp {
  enum RedOpType : uint8_t { SUM = 0, AVG = 1, PRODUCT = 2, MIN = 3, MAX = 4 };
  ReduceOp() = default;
  ReduceOp(RedOpType op) : op_(op) {}         // NOLINT(google-explicit-constructor)
  operator RedOpType() const { return op_; }  // NOLINT(google-explicit-constructor)
  RedOpType op_ = SUM;
};
BRASA_API const char* to_string(ReduceOp::RedOpType op);

// Options of each collective (c10d's structs). A timeout of kUnsetTimeout means the group's.
struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllToAllOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct BarrierOptions {
  std::vector<int64_t> device_ids;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};

/// The handle of one asynchronous operation (c10d::Work). Backends call finish(); the first call
/// completes it and later ones do nothing (a lost peer can fail an op Gloo is still running).
class BRASA_API Work : public RefCounted {
 public:
  explicit Work(std::string op_name = "", std::vector<Tensor> outputs = {})
      : op_name_(std::move(op_name)), outputs_(std::move(outputs)) {}
  ~Work() override = default;

  /// Whether the operation finished (successfully or not).
  virtual bool isCompleted();
  /// Whether it finished without error (false while running).
  virtual bool isSuccess() const;
  /// The error it finished with, or null.
  virtual std::exception_ptr exception() const;
  /// Blocks until the operation finishes and rethrows its error. With a timeout other than
  /// kNoTimeout, throws DistributedTimeoutError naming the operation once it elapses. Returns true.
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  /// The output tensors (valid after wait()).
  virtual std::vector<Tensor> result();
  /// The rank a recv received from (for recvAnysource: known once it completed). ValueError for
  /// other ops, or for a recvAnysource not yet completed.
  virtual int sourceRank() const;
  /// A no-op for CPU tensors (libtorch uses it to order CUDA streams).
  virtual void synchronize() {}
  /// Stops waiting for the op: Gloo's send and recv (a wait() in progress or to come returns
  /// false); other Works throw NotImplementedError naming the op.
  virtual void abort();
  /// A future that completes with result() (a list of tensors) when the op succeeds, or with its
  /// error; then()/addCallback() chain work on it. The same future on every call.
  IntrusivePtr<Future> getFuture();
  const std::string& op_name() const noexcept { return op_name_; }

  /// Marks the work done (error null = success), wakes waiters and completes the future. Called
  /// by the backend.
  void finish(std::exception_ptr error = nullptr);
  /// Backends: the source rank sourceRank() reports.
  void set_source_rank(int rank);

 protected:
  std::string op_name_;
  std::vector<Tensor> outputs_;
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool completed_ = false;
  std::exception_ptr error_;
  int source_rank_ = -1;
  IntrusivePtr<Future> future_;  // made by the first getFuture()
};

/// A group of `size` ranks; this process is `rank`.
class BRASA_API ProcessGroup : public RefCounted {
 public:
  /// c10d's spelling before Work left ProcessGroup (libtorch < 1.13; pytorch/examples'
  /// cpp/distributed still writes `c10d::ProcessGroup::Work`).
  using Work = ::brasa::distributed::Work;

  ProcessGroup(int rank, int size) : rank_(rank), size_(size) {}
  ~ProcessGroup() override = default;

  int getRank() const noexcept { return rank_; }
  int getSize() const noexcept { return size_; }
  virtual const std::string getBackendName() const = 0;

  /// Every tensor in `tensors` (one per call in brasa) becomes root's.
  virtual IntrusivePtr<Work> broadcast(std::vector<Tensor>& tensors,
                                       const BroadcastOptions& opts = BroadcastOptions()) = 0;
  /// In place: the reduction of the tensors over all ranks. float32/64, int8..int64, uint8; half
  /// and bfloat16 reduced in float32.
  virtual IntrusivePtr<Work> allreduce(std::vector<Tensor>& tensors,
                                       const AllreduceOptions& opts = AllreduceOptions()) = 0;
  /// Only rootRank receives the reduction (others' tensors are unspecified afterwards).
  virtual IntrusivePtr<Work> reduce(std::vector<Tensor>& tensors,
                                    const ReduceOptions& opts = ReduceOptions()) = 0;
  /// outputTensors[0][r] receives rank r's inputTensors[0].
  virtual IntrusivePtr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                                       std::vector<Tensor>& inputTensors,
                                       const AllgatherOptions& opts = AllgatherOptions()) = 0;
  /// As allgather, to rootRank only (others pass empty outputTensors).
  virtual IntrusivePtr<Work> gather(std::vector<std::vector<Tensor>>& outputTensors,
                                    std::vector<Tensor>& inputTensors,
                                    const GatherOptions& opts = GatherOptions()) = 0;
  /// outputTensors[0] on rank r receives rootRank's inputTensors[0][r].
  virtual IntrusivePtr<Work> scatter(std::vector<Tensor>& outputTensors,
                                     std::vector<std::vector<Tensor>>& inputTensors,
                                     const ScatterOptions& opts = ScatterOptions()) = 0;
  /// outputTensors[0] on rank r receives the reduction over ranks of inputTensors[0][r].
  virtual IntrusivePtr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) = 0;
  /// Splits dim 0 of `inputTensor` by inputSplitSizes (empty: equal) and sends piece r to rank r;
  /// outputTensor receives the pieces by source rank (outputSplitSizes).
  virtual IntrusivePtr<Work> alltoall_base(Tensor& outputTensor, Tensor& inputTensor,
                                           std::vector<int64_t>& outputSplitSizes,
                                           std::vector<int64_t>& inputSplitSizes,
                                           const AllToAllOptions& opts = AllToAllOptions()) = 0;
  /// outputTensors[r] receives rank r's inputTensors[this rank].
  virtual IntrusivePtr<Work> alltoall(std::vector<Tensor>& outputTensors,
                                      std::vector<Tensor>& inputTensors,
                                      const AllToAllOptions& opts = AllToAllOptions()) = 0;
  virtual IntrusivePtr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag) = 0;
  virtual IntrusivePtr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag) = 0;
  virtual IntrusivePtr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) = 0;
  /// A recv from whichever rank sends first with `tag`; the Work's sourceRank() says which.
  /// NotImplementedError on backends without it (Gloo).
  virtual IntrusivePtr<Work> recvAnysource(std::vector<Tensor>& tensors, int tag);
  /// A barrier that names the ranks that did not arrive within opts.timeout (Gloo only).
  virtual void monitoredBarrier(const BarrierOptions& opts = BarrierOptions(),
                                bool waitAllRanks = false);
  /// Agrees on a starting sequence number with the other ranks (rank 0's, through the store);
  /// every later collective increments it (Gloo only).
  virtual void setSequenceNumberForGroup();
  /// The current sequence number; 0 before setSequenceNumberForGroup (Gloo only).
  virtual uint64_t getSequenceNumberForGroup();

  /// A function a backend calls when a connection to a peer breaks, to name what was lost (e.g.
  /// "rank 1 stopped responding"); its text is appended to the error. init_process_group installs
  /// one based on store heartbeats.
  void set_failure_diagnoser(std::function<std::string()> diagnoser) {
    std::lock_guard<std::mutex> lock(diagnoser_mutex_);
    diagnoser_ = std::move(diagnoser);
  }
  std::string diagnose_failure() const {
    std::function<std::string()> d;
    {
      std::lock_guard<std::mutex> lock(diagnoser_mutex_);
      d = diagnoser_;
    }
    try {
      return d ? d() : std::string();
    } catch (...) {
      return std::string();
    }
  }

 protected:
  int rank_;
  int size_;
  mutable std::mutex diagnoser_mutex_;
  std::function<std::string()> diagnoser_;
};

}  // namespace brasa::distributed
