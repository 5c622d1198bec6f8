#pragma once
// ProcessGroupMPI::Impl: the communicator, the FIFO worker thread running blocking collectives,
// and the thread that polls pending send/recv requests. Internal.

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "brasa/distributed/process_group_mpi.h"
#include "distributed/mpi/mpi_runtime.h"

namespace brasa::distributed {

struct ProcessGroupMPI::Impl {
  Impl(MPI_Comm comm, int rank, int size);
  ~Impl();
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  /// "ProcessGroupMPI::<op> (rank r of n)": the prefix of every error message.
  std::string where(const char* op) const;
  /// Queues `fn` (blocking MPI calls) behind the earlier collectives; the Work finishes when it
  /// returns, or with the exception it throws.
  IntrusivePtr<Work> enqueue(const char* op, std::vector<Tensor> outputs, std::function<void()> fn);
  /// Hands a posted MPI_Isend/MPI_Irecv request to the poller; `on_done` runs on completion.
  /// `on_done` may set the source rank of `work` (made by the caller, or here when null).
  IntrusivePtr<Work> post(const char* op, std::vector<Tensor> outputs, MPI_Request request,
                          std::function<void(const MPI_Status&)> on_done,
                          IntrusivePtr<Work> work = nullptr);

  MPI_Comm comm;
  int rank;
  int size;

 private:
  struct Queued {
    IntrusivePtr<Work> work;
    std::function<void()> fn;
  };
  struct Pending {
    IntrusivePtr<Work> work;
    MPI_Request request;
    std::function<void(const MPI_Status&)> on_done;
    std::string where;
  };
  void run_worker();
  void run_poller();
  void cancel_pending();

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<Queued> queue_;
  bool stop_worker_ = false;
  std::thread worker_;

  std::mutex pending_mutex_;
  std::condition_variable pending_cv_;
  std::vector<Pending> pending_;
  bool stop_poller_ = false;
  std::thread poller_;
};

}  // namespace brasa::distributed
