// mpirun placement from OMPI_COMM_WORLD_* (no MPI call), and the c10d compat spelling.
// The collectives themselves are tested by mpi_worker under mpirun
// (tests/distributed/CMakeLists.txt).

#include <gtest/gtest.h>
#include <stdlib.h>

#include <array>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "brasa/distributed/process_group_mpi.h"
#include "torch/csrc/distributed/c10d/ProcessGroupMPI.hpp"

namespace {

using brasa::distributed::DistributedError;
using brasa::distributed::launched_by_mpirun;
using brasa::distributed::mpi_launch_info;

static_assert(std::is_same_v<c10d::ProcessGroupMPI, brasa::distributed::ProcessGroupMPI>);
static_assert(std::is_base_of_v<c10d::ProcessGroup, c10d::ProcessGroupMPI>);

// Sets the four variables for the test's duration, restoring the old values afterwards.
class OmpiEnv {
 public:
  OmpiEnv() {
    for (const char* name : kNames) {
      const char* v = getenv(name);
      saved_.push_back(v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(name);
    }
  }
  ~OmpiEnv() {
    for (size_t i = 0; i < kNames.size(); ++i) {
      if (saved_[i]) {
        setenv(kNames[i], saved_[i]->c_str(), 1);
      } else {
        unsetenv(kNames[i]);
      }
    }
  }
  OmpiEnv(const OmpiEnv&) = delete;
  OmpiEnv& operator=(const OmpiEnv&) = delete;

 private:
  static constexpr std::array<const char*, 4> kNames = {
      "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
      "OMPI_COMM_WORLD_LOCAL_SIZE"};
  std::vector<std::optional<std::string>> saved_;
};

TEST(MpiEnv, NotLaunched) {
  OmpiEnv env;
  EXPECT_FALSE(launched_by_mpirun());
  try {
    mpi_launch_info();
    FAIL() << "expected DistributedError";
  } catch (const DistributedError& e) {
    EXPECT_NE(std::string(e.what()).find("OMPI_COMM_WORLD_SIZE is not set"), std::string::npos)
        << e.what();
  }
}

TEST(MpiEnv, Placement) {
  OmpiEnv env;
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  setenv("OMPI_COMM_WORLD_RANK", "3", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
  EXPECT_TRUE(launched_by_mpirun());
  auto info = mpi_launch_info();
  EXPECT_EQ(info.rank, 3);
  EXPECT_EQ(info.size, 4);
  EXPECT_EQ(info.local_rank, 1);
  EXPECT_EQ(info.local_size, 2);
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  info = mpi_launch_info();
  EXPECT_EQ(info.local_rank, 3);
  EXPECT_EQ(info.local_size, 4);
}

TEST(MpiEnv, Malformed) {
  OmpiEnv env;
  setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
  setenv("OMPI_COMM_WORLD_RANK", "x1", 1);
  EXPECT_THROW(mpi_launch_info(), DistributedError);
  setenv("OMPI_COMM_WORLD_RANK", "4", 1);
  EXPECT_THROW(mpi_launch_info(), DistributedError);
  setenv("OMPI_COMM_WORLD_RANK", "-1", 1);
  EXPECT_THROW(mpi_launch_info(), DistributedError);
}

}  // namespace
