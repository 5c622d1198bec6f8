// ProcessGroupGloo's GlooStore / _getStore, monitoredBarrier and sequence numbers, in libtorch's
// spelling, on 2-4 ranks (threads, loopback).

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include "distributed/c10d_ranks.h"

namespace {

using namespace std::chrono_literals;

TEST(C10dGloo, GlooStoreReachesTheGroupsStore) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  c10d::ProcessGroupGloo::GlooStore gloo_store(store);
  gloo_store.set("k", std::vector<char>{'a', 'b'});
  EXPECT_EQ(store->get_string("k"), "ab");
  gloo_store.setUint("u", std::vector<uint8_t>{1, 2});
  EXPECT_EQ(gloo_store.getUint("u"), (std::vector<uint8_t>{1, 2}));
  EXPECT_EQ(gloo_store.get("k"), (std::vector<char>{'a', 'b'}));
  gloo_store.wait({"k", "u"}, 100ms);
  EXPECT_THROW(gloo_store.wait({"missing"}, 50ms), c10d::DistributedTimeoutError);
  run_c10d_ranks(2, [](c10d::ProcessGroupGloo& pg, int r) {
    pg._getStore()->set("from_" + std::to_string(r), std::vector<char>{'x'});
    EXPECT_EQ(pg._getStore()->get("from_" + std::to_string(1 - r)), std::vector<char>{'x'});
    EXPECT_EQ(pg.getNumThreads(), 2);
  });
}

TEST(C10dGloo, MonitoredBarrierPassesWhenAllArrive) {
  run_c10d_ranks(3, [](c10d::ProcessGroupGloo& pg, int r) {
    if (r == 2) std::this_thread::sleep_for(50ms);
    c10d::BarrierOptions opts;
    opts.timeout = 2000ms;
    pg.monitoredBarrier(opts);
    pg.monitoredBarrier(opts, /*waitAllRanks=*/true);
  });
}

// The error text, measured against torch 1.13: "[Rank 0]: Rank 1 failed to pass monitoredBarrier
// in 300 ms".
TEST(C10dGloo, MonitoredBarrierNamesTheMissingRank) {
  std::vector<std::string> errors(3);
  run_c10d_ranks(3, [&](c10d::ProcessGroupGloo& pg, int r) {
    if (r == 2) return;  // never arrives
    c10d::BarrierOptions opts;
    opts.timeout = 300ms;
    try {
      pg.monitoredBarrier(opts);
    } catch (const c10d::DistributedTimeoutError& e) {
      errors[static_cast<size_t>(r)] = e.what();
    }
  });
  EXPECT_EQ(errors[0], "[Rank 0]: Rank 2 failed to pass monitoredBarrier in 300 ms");
  EXPECT_NE(errors[1].find("[Rank 1]: monitoredBarrier: rank 0 did not release"), std::string::npos)
      << errors[1];
}

TEST(C10dGloo, MonitoredBarrierWithWaitAllRanksNamesThemAll) {
  std::string error;
  run_c10d_ranks(4, [&](c10d::ProcessGroupGloo& pg, int r) {
    if (r >= 2) return;
    c10d::BarrierOptions opts;
    opts.timeout = 200ms;
    try {
      pg.monitoredBarrier(opts, /*waitAllRanks=*/true);
    } catch (const c10d::DistributedTimeoutError& e) {
      if (r == 0) error = e.what();
    }
  });
  EXPECT_EQ(error, "[Rank 0]: Ranks 2, 3 failed to pass monitoredBarrier in 200 ms");
}

TEST(C10dGloo, SequenceNumbersAgreeAndCountCollectives) {
  std::vector<uint64_t> seen(2);
  run_c10d_ranks(2, [&](c10d::ProcessGroupGloo& pg, int r) {
    EXPECT_EQ(pg.getSequenceNumberForGroup(), 0u);
    pg.setSequenceNumberForGroup();
    const uint64_t start = pg.getSequenceNumberForGroup();
    EXPECT_GT(start, 0u);
    std::vector<at::Tensor> t{at::ones({2})};
    pg.allreduce(t)->wait();
    EXPECT_EQ(pg.getSequenceNumberForGroup(), start + 1);
    pg.barrier()->wait();
    EXPECT_EQ(pg.getSequenceNumberForGroup(), start + 2);
    seen[static_cast<size_t>(r)] = start;
  });
  EXPECT_EQ(seen[0], seen[1]);
}

}  // namespace
