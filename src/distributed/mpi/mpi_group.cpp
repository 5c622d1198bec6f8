// ProcessGroupMPI: creation (MPI init, world/subgroup communicators), the collective worker queue
// and the send/recv poller.

#include "distributed/mpi/mpi_group.h"

#include <algorithm>
#include <chrono>

namespace brasa::distributed {

ProcessGroupMPI::Impl::Impl(MPI_Comm comm_, int rank_, int size_)
    : comm(comm_), rank(rank_), size(size_) {
  worker_ = std::thread([this] { run_worker(); });
  poller_ = std::thread([this] { run_poller(); });
}

ProcessGroupMPI::Impl::~Impl() {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    stop_worker_ = true;
  }
  queue_cv_.notify_all();
  worker_.join();
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    stop_poller_ = true;
  }
  pending_cv_.notify_all();
  poller_.join();
  cancel_pending();
  if (!mpi::finalized() && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

std::string ProcessGroupMPI::Impl::where(const char* op) const {
  return detail::str_cat("ProcessGroupMPI::", op, " (rank ", rank, " of ", size, ")");
}

IntrusivePtr<Work> ProcessGroupMPI::Impl::enqueue(const char* op, std::vector<Tensor> outputs,
                                                  std::function<void()> fn) {
  auto work = make_intrusive<Work>(detail::str_cat("ProcessGroupMPI::", op), std::move(outputs));
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.push_back(Queued{work, std::move(fn)});
  }
  queue_cv_.notify_one();
  return work;
}

void ProcessGroupMPI::Impl::run_worker() {
  for (;;) {
    Queued item;
    {
      std::unique_lock<std::mutex> lock(queue_mutex_);
      queue_cv_.wait(lock, [this] { return stop_worker_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    std::exception_ptr error;
    try {
      item.fn();
    } catch (...) {
      error = std::current_exception();
    }
    item.fn = nullptr;  // drop the captured buffers before waking waiters
    item.work->finish(error);
  }
}

IntrusivePtr<Work> ProcessGroupMPI::Impl::post(const char* op, std::vector<Tensor> outputs,
                                               MPI_Request request,
                                               std::function<void(const MPI_Status&)> on_done,
                                               IntrusivePtr<Work> work) {
  if (!work) {
    work = make_intrusive<Work>(detail::str_cat("ProcessGroupMPI::", op), std::move(outputs));
  }
  {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    pending_.push_back(Pending{work, request, std::move(on_done), where(op)});
  }
  pending_cv_.notify_one();
  return work;
}

// Polls with a short backoff while requests are pending, sleeps on the condition otherwise.
void ProcessGroupMPI::Impl::run_poller() {
  auto backoff = std::chrono::microseconds(0);
  std::unique_lock<std::mutex> lock(pending_mutex_);
  for (;;) {
    pending_cv_.wait(lock, [this] { return stop_poller_ || !pending_.empty(); });
    if (stop_poller_) return;
    std::vector<Pending> done;
    std::vector<std::exception_ptr> errors;
    for (size_t i = 0; i < pending_.size();) {
      int flag = 0;
      MPI_Status status;
      status.MPI_ERROR = MPI_SUCCESS;  // only set by OpenMPI when the request failed
      int rc = MPI_Test(&pending_[i].request, &flag, &status);
      if (rc == MPI_SUCCESS && !flag) {
        ++i;
        continue;
      }
      std::exception_ptr error;
      try {
        mpi::check(rc, pending_[i].where, "MPI_Test");
        mpi::check(status.MPI_ERROR, pending_[i].where, "the request");
        pending_[i].on_done(status);
      } catch (...) {
        error = std::current_exception();
      }
      done.push_back(std::move(pending_[i]));
      errors.push_back(error);
      pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (!done.empty()) {
      lock.unlock();
      for (size_t i = 0; i < done.size(); ++i) {
        done[i].on_done = nullptr;
        done[i].work->finish(errors[i]);
      }
      done.clear();
      lock.lock();
      backoff = std::chrono::microseconds(0);
    } else {
      backoff = std::min(std::chrono::microseconds(500), backoff + std::chrono::microseconds(10));
      pending_cv_.wait_for(lock, backoff, [this] { return stop_poller_; });
    }
  }
}

// At destruction: requests still pending are cancelled and their Work fails. A request that does
// not complete within a second after MPI_Cancel is freed and its buffers are leaked on purpose
// (MPI may still write into them).
void ProcessGroupMPI::Impl::cancel_pending() {
  for (auto& p : pending_) {
    bool completed = mpi::finalized();
    if (!completed) {
      MPI_Cancel(&p.request);
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (!completed && std::chrono::steady_clock::now() < deadline) {
        int flag = 0;
        if (MPI_Test(&p.request, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) break;
        completed = flag != 0;
      }
      if (!completed) {
        MPI_Request_free(&p.request);
        new std::function<void(const MPI_Status&)>(std::move(p.on_done));  // NOLINT: leaked
      }
    }
    try {
      BRASA_THROW(distributed::DistributedError, p.where,
                  ": cancelled because the process group was destroyed");
    } catch (...) {
      p.work->finish(std::current_exception());
    }
  }
  pending_.clear();
}

ProcessGroupMPI::ProcessGroupMPI(std::unique_ptr<Impl> impl, int rank, int size)
    : ProcessGroup(rank, size), impl_(std::move(impl)) {}

ProcessGroupMPI::~ProcessGroupMPI() = default;

IntrusivePtr<ProcessGroupMPI> ProcessGroupMPI::createProcessGroupMPI(std::vector<int> ranks) {
  static std::mutex create_mutex;
  std::lock_guard<std::mutex> lock(create_mutex);
  mpi::init_once();
  const std::string where = "ProcessGroupMPI::createProcessGroupMPI";
  int world_rank = 0;
  int world_size = 0;
  mpi::check(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank), where, "MPI_Comm_rank");
  mpi::check(MPI_Comm_size(MPI_COMM_WORLD, &world_size), where, "MPI_Comm_size");
  MPI_Comm comm = MPI_COMM_NULL;
  if (ranks.empty()) {
    mpi::check(MPI_Comm_dup(MPI_COMM_WORLD, &comm), where, "MPI_Comm_dup");
  } else {
    std::vector<int> sorted = ranks;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) {
      BRASA_CHECK(sorted[i] >= 0 && sorted[i] < world_size, where, ": rank ", sorted[i],
                  " is out of range for a world of ", world_size, " ranks");
      BRASA_CHECK(i == 0 || sorted[i] != sorted[i - 1], where, ": rank ", sorted[i],
                  " is listed twice");
    }
    if (!std::binary_search(sorted.begin(), sorted.end(), world_rank)) return nullptr;
    MPI_Group world_group = MPI_GROUP_NULL;
    MPI_Group group = MPI_GROUP_NULL;
    mpi::check(MPI_Comm_group(MPI_COMM_WORLD, &world_group), where, "MPI_Comm_group");
    int rc = MPI_Group_incl(world_group, static_cast<int>(ranks.size()), ranks.data(), &group);
    MPI_Group_free(&world_group);
    mpi::check(rc, where, "MPI_Group_incl");
    rc = MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &comm);
    MPI_Group_free(&group);
    mpi::check(rc, where, "MPI_Comm_create_group");
  }
  mpi::check(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), where, "MPI_Comm_set_errhandler");
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  return make_intrusive<ProcessGroupMPI>(std::make_unique<Impl>(comm, rank, size), rank, size);
}

}  // namespace brasa::distributed
