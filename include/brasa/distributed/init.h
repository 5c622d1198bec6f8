#pragma once
// The default process group (torch.distributed.init_process_group and friends).
//
// Environment (what brasarun, torchrun or mpirun set): RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT;
// with the "mpi" backend under mpirun, OMPI_COMM_WORLD_RANK / _SIZE instead. Rendezvous for Gloo
// goes through a TCPStore hosted by rank 0, under the prefix "<run id>/<restart count>"
// (TORCHELASTIC_RUN_ID / BRASA_RUN_ID and TORCHELASTIC_RESTART_COUNT / BRASA_RESTART_COUNT), so a
// restarted group never reads the previous generation's keys.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "brasa/distributed/process_group.h"
#include "brasa/distributed/store.h"

namespace brasa::distributed {

struct InitOptions {
  std::optional<int> rank;        // default: RANK (or the MPI launcher's rank)
  std::optional<int> world_size;  // default: WORLD_SIZE (or the MPI launcher's size)
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  IntrusivePtr<Store> store;  // default: a TCPStore at MASTER_ADDR:MASTER_PORT
};

/// Creates the default group with backend "gloo" or "mpi". Throws ValueError for an unknown
/// backend, a missing or malformed environment variable (naming it), or a second call without
/// destroy_process_group(); DistributedError when the rendezvous fails or times out.
BRASA_API IntrusivePtr<ProcessGroup> init_process_group(const std::string& backend,
                                                        const InitOptions& options = {});
BRASA_API bool is_initialized();
/// The default group; ValueError when init_process_group was not called.
BRASA_API IntrusivePtr<ProcessGroup> default_process_group();
BRASA_API int get_rank();
BRASA_API int get_world_size();
/// A group of `ranks` (of the default group) on the default group's backend. Every process of the
/// default group must call it, in the same order; processes outside `ranks` get a null pointer.
BRASA_API IntrusivePtr<ProcessGroup> new_group(const std::vector<int>& ranks);
/// Releases the default group and every group from new_group (their pending work is waited for).
BRASA_API void destroy_process_group();

}  // namespace brasa::distributed
