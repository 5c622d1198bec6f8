// Placement of this process from OpenMPI's mpirun environment (no MPI call).

#include <cerrno>
#include <cstdlib>
#include <string>

#include "brasa/distributed/process_group_mpi.h"

namespace brasa::distributed {
namespace {

int read_env_int(const char* name, int fallback, bool required) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') {
    if (required) {
      BRASA_THROW(distributed::DistributedError, "mpi_launch_info: ", name,
                  " is not set (was the process started by mpirun?)");
    }
    return fallback;
  }
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 0 || value > 1 << 24) {
    BRASA_THROW(distributed::DistributedError, "mpi_launch_info: ", name, "='", text,
                "' is not a valid non-negative integer");
  }
  return static_cast<int>(value);
}

}  // namespace

bool launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

MpiLaunchInfo mpi_launch_info() {
  MpiLaunchInfo info;
  info.size = read_env_int("OMPI_COMM_WORLD_SIZE", 1, true);
  info.rank = read_env_int("OMPI_COMM_WORLD_RANK", 0, true);
  info.local_rank = read_env_int("OMPI_COMM_WORLD_LOCAL_RANK", info.rank, false);
  info.local_size = read_env_int("OMPI_COMM_WORLD_LOCAL_SIZE", info.size, false);
  if (info.size < 1 || info.rank >= info.size || info.local_size < 1 ||
      info.local_rank >= info.local_size) {
    BRASA_THROW(distributed::DistributedError, "mpi_launch_info: inconsistent placement rank ",
                info.rank, " of ", info.size, ", local rank ", info.local_rank, " of ",
                info.local_size);
  }
  return info;
}

}  // namespace brasa::distributed
