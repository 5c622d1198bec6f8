// parallel_for: chunks cover the range once, results written by the threads are seen by the caller,
// and what the caller wrote before is seen by the threads. Under the tsan preset these also check
// that ThreadSanitizer knows about the OpenMP fork and join (Note [OpenMP under ThreadSanitizer]).
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {
// Runs with 4 threads (more than this machine may have cores), then restores the setting.
class ParallelFor : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = get_num_threads();
    set_num_threads(4);
  }
  void TearDown() override { set_num_threads(saved_); }
  int saved_ = 1;
};
}  // namespace

TEST_F(ParallelFor, ThreadsWritesAreSeenByTheCallerAndBack) {
  std::vector<int64_t> v(4096, -1);
  for (int round = 0; round < 3; ++round) {
    // The caller writes, the threads read and write, the caller reads: each way crosses a region
    // edge.
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i) * round;
    parallel_for(0, static_cast<int64_t>(v.size()), 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) v[static_cast<size_t>(i)] += i;
    });
    const int64_t n = static_cast<int64_t>(v.size());
    EXPECT_EQ(std::accumulate(v.begin(), v.end(), int64_t{0}), (round + 1) * n * (n - 1) / 2);
  }
}

TEST_F(ParallelFor, AnExceptionOfAChunkReachesTheCaller) {
  std::vector<int> seen(64, 0);
  EXPECT_THROW(parallel_for(0, 64, 1,
                            [&](int64_t b, int64_t e) {
                              for (int64_t i = b; i < e; ++i) seen[static_cast<size_t>(i)] = 1;
                              if (b == 0) throw std::runtime_error("chunk 0");
                            }),
               std::runtime_error);
  EXPECT_EQ(std::accumulate(seen.begin(), seen.end(), 0), 64);
}

TEST_F(ParallelFor, TensorOpsOnManyThreads) {
  // A kernel through the dispatcher (allocation, parallel fill, parallel reduction, free).
  Tensor a = ones({256, 256});
  EXPECT_EQ((a * 2).sum().item<double>(), 2.0 * 256 * 256);
}
