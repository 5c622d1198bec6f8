// ProcessGroupMPI's libtorch spellings under mpirun: c10d::MPI_BACKEND_NAME, recvAnysource with
// Work::sourceRank(), and (argument "abort") ProcessGroupMPI::abort ending the whole job.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <torch/csrc/distributed/c10d/ProcessGroupMPI.hpp>

namespace {
[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "mpi_c10d_worker: FAILED: %s\n", what);
  std::exit(1);
}
#define EXPECT(cond) \
  if (!(cond)) fail(#cond)
}  // namespace

int main(int argc, char** argv) {
  alarm(30);  // watchdog
  auto pg = c10d::ProcessGroupMPI::createProcessGroupMPI();
  EXPECT(pg->getBackendName() == c10d::MPI_BACKEND_NAME);
  const int rank = pg->getRank(), size = pg->getSize();
  if (argc > 1 && std::string(argv[1]) == "abort") {
    if (rank == 1) {
      std::printf("mpi_c10d_worker: rank 1 aborts the job\n");
      std::fflush(stdout);
      pg->abort();
    }
    pg->barrier()->wait();  // rank 1 never arrives: only the abort ends this
    fail("the job survived ProcessGroupMPI::abort");
  }
  if (rank == 0) {
    std::set<int> sources;
    for (int i = 1; i < size; ++i) {
      std::vector<at::Tensor> buf{at::zeros({3})};
      auto work = pg->recvAnysource(buf, 5);
      work->wait();
      const int src = work->sourceRank();
      EXPECT(src >= 1 && src < size);
      EXPECT(buf[0][2].item<float>() == static_cast<float>(src));
      sources.insert(src);
    }
    EXPECT(static_cast<int>(sources.size()) == size - 1);
  } else {
    std::vector<at::Tensor> buf{at::full({3}, static_cast<double>(rank))};
    auto work = pg->send(buf, 0, 5);
    work->wait();
  }
  std::vector<at::Tensor> one{at::zeros({1})};
  auto recv = pg->recv(one, (rank + 1) % size, 6);
  EXPECT(size == 1 || recv->sourceRank() == (rank + 1) % size);
  std::vector<at::Tensor> mine{at::zeros({1})};
  pg->send(mine, (rank + size - 1) % size, 6)->wait();
  recv->wait();
  pg->barrier()->wait();
  if (rank == 0) std::printf("mpi_c10d_worker: all checks passed on %d ranks\n", size);
  return 0;
}
