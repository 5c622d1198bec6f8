#pragma once
// ProcessGroupMPI (c10d::ProcessGroupMPI): collectives over OpenMPI. The MPI handles live in an
// opaque Impl so this header does not include mpi.h.
//
// Asynchrony: collectives are queued (FIFO) to one worker thread per group that runs the blocking
// MPI call and then finishes the Work; send/recv are posted at once as MPI_Isend/MPI_Irecv and
// completed by a second thread that polls their requests (so a pending recv never blocks the
// collective queue). MPI errors come back (MPI_ERRORS_RETURN) as DistributedError naming the op,
// the rank and MPI's error string. MPI calls cannot be interrupted: an op's timeout option is not
// enforced; Work::wait(timeout) bounds the waiting side only.

#include <memory>
#include <vector>

#include "brasa/distributed/process_group.h"

namespace brasa::distributed {

/// The name getBackendName() returns (c10d::MPI_BACKEND_NAME).
constexpr const char* MPI_BACKEND_NAME = "mpi";

/// Where mpirun placed this process (from OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK/LOCAL_SIZE).
struct MpiLaunchInfo {
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  int local_size = 1;
};

/// True when this process was started by OpenMPI's mpirun (OMPI_COMM_WORLD_SIZE is set).
BRASA_API bool launched_by_mpirun();
/// The OMPI_COMM_WORLD_* placement; throws DistributedError when not launched by mpirun or when a
/// variable is missing or malformed (naming it). LOCAL_* default to (rank, size) when absent.
BRASA_API MpiLaunchInfo mpi_launch_info();

class BRASA_API ProcessGroupMPI : public ProcessGroup {
 public:
  struct Impl;

  ProcessGroupMPI(std::unique_ptr<Impl> impl, int rank, int size);
  /// Finishes the queued collectives, cancels pending send/recv, frees the communicator.
  ~ProcessGroupMPI() override;

  /// Initialises MPI once per process (MPI_THREAD_MULTIPLE required; finalized at exit when this
  /// library initialised it). Empty `ranks`: all of MPI_COMM_WORLD; otherwise the world ranks of a
  /// subgroup (must be called by every member with the same list); returns null on processes not
  /// in `ranks`. Throws DistributedError on MPI failures or invalid ranks.
  static IntrusivePtr<ProcessGroupMPI> createProcessGroupMPI(std::vector<int> ranks = {});

  const std::string getBackendName() const override { return MPI_BACKEND_NAME; }
  /// Ends the whole MPI job at once: MPI_Abort on this group's communicator, which makes mpirun
  /// kill every process of the job (libtorch's semantics; nothing returns).
  void abort();

  IntrusivePtr<Work> broadcast(std::vector<Tensor>& tensors,
                               const BroadcastOptions& opts = BroadcastOptions()) override;
  IntrusivePtr<Work> allreduce(std::vector<Tensor>& tensors,
                               const AllreduceOptions& opts = AllreduceOptions()) override;
  IntrusivePtr<Work> reduce(std::vector<Tensor>& tensors,
                            const ReduceOptions& opts = ReduceOptions()) override;
  IntrusivePtr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                               std::vector<Tensor>& inputTensors,
                               const AllgatherOptions& opts = AllgatherOptions()) override;
  IntrusivePtr<Work> gather(std::vector<std::vector<Tensor>>& outputTensors,
                            std::vector<Tensor>& inputTensors,
                            const GatherOptions& opts = GatherOptions()) override;
  IntrusivePtr<Work> scatter(std::vector<Tensor>& outputTensors,
                             std::vector<std::vector<Tensor>>& inputTensors,
                             const ScatterOptions& opts = ScatterOptions()) override;
  IntrusivePtr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  IntrusivePtr<Work> alltoall_base(Tensor& outputTensor, Tensor& inputTensor,
                                   std::vector<int64_t>& outputSplitSizes,
                                   std::vector<int64_t>& inputSplitSizes,
                                   const AllToAllOptions& opts = AllToAllOptions()) override;
  IntrusivePtr<Work> alltoall(std::vector<Tensor>& outputTensors, std::vector<Tensor>& inputTensors,
                              const AllToAllOptions& opts = AllToAllOptions()) override;
  IntrusivePtr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag) override;
  IntrusivePtr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag) override;
  /// MPI_Irecv from MPI_ANY_SOURCE; once the Work completes, sourceRank() is the sender.
  IntrusivePtr<Work> recvAnysource(std::vector<Tensor>& tensors, int tag) override;
  IntrusivePtr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace brasa::distributed
