// fully_shard across processes started by brasarun (loopback, 2 and 4 ranks): equal to
// single-process training on the global batch, with uneven shards, a tied weight, buffers and a
// frozen parameter (all in fsdp_worker's Net); gradient accumulation without sync; bf16
// parameters with float32 reduction. DeviceMesh and DTensor checks run inside fsdp_worker.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "brasa/brasa.h"
#include "support/brasarun_launch.h"

namespace {
namespace fs = std::filesystem;

std::string work_dir() { return brasa::testing::scratch_dir("brasa_fsdp_"); }

int run(const std::string& cmd) { return brasa::testing::run_bounded(cmd); }

std::string launch(int ranks, const std::string& args) {
  return brasa::testing::brasarun_command(BRASA_BRASARUN, ranks, BRASA_FSDP_WORKER, args);
}

std::string reference(const std::string& args) {
  return std::string(BRASA_FSDP_WORKER) + " reference " + args;
}

double max_difference(const std::string& a, const std::string& b) {
  std::vector<brasa::Tensor> x, y;
  brasa::load(x, a);
  brasa::load(y, b);
  EXPECT_EQ(x.size(), y.size());
  double worst = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    EXPECT_EQ(x[i].sizes(), y[i].sizes()) << "parameter " << i;
    if (x[i].sizes() != y[i].sizes()) return 1e300;
    worst = std::max(worst, (x[i] - y[i]).abs().max().item<double>());
  }
  return worst;
}

TEST(DeviceMeshAndDTensor, RedistributeMatchesLocalChunking) {
  for (int ranks : {1, 2, 3, 4}) {
    EXPECT_EQ(run(launch(ranks, "dtensor")), 0) << ranks << " ranks";
  }
}

TEST(FullyShard, StateDictsFullAndShardedTiedWeightRule) {
  for (int ranks : {2, 4}) {
    EXPECT_EQ(run(launch(ranks, "state-dict")), 0) << ranks << " ranks";
  }
}

TEST(FullyShard, EqualsSingleProcessAdamWTrainingOnTheGlobalBatch) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt";
  ASSERT_EQ(run(reference("50 " + ref)), 0);
  for (int ranks : {2, 4}) {  // 1 and 3 ranks pass too (2e-16); kept out to bound the time
    const std::string out = dir + "/fsdp" + std::to_string(ranks) + ".pt";
    ASSERT_EQ(run(launch(ranks, "train 50 " + out)), 0) << ranks << " ranks";
    EXPECT_LE(max_difference(out, ref), 1e-12) << ranks << " ranks";
  }
  fs::remove_all(dir);
}

TEST(FullyShard, WithoutReshardAfterForwardEqualsSingleProcessTraining) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/fsdp.pt";
  ASSERT_EQ(run(reference("30 " + ref)), 0);
  ASSERT_EQ(run(launch(4, "train 30 " + out + " --no-reshard")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-12);
  fs::remove_all(dir);
}

TEST(FullyShard, HybridShardingOnA2x2MeshEqualsSingleProcessTraining) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/hsdp.pt";
  ASSERT_EQ(run(reference("30 " + ref)), 0);
  ASSERT_EQ(run(launch(4, "train 30 " + out + " --hsdp")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-12);
  fs::remove_all(dir);
}

TEST(FullyShard, AccumulationWithoutSyncEqualsOneStepOnTheLargerBatch) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/fsdp.pt";
  ASSERT_EQ(run(reference("20 " + ref + " --accum 3")), 0);
  ASSERT_EQ(run(launch(2, "train 20 " + out + " --accum 3")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-12);
  fs::remove_all(dir);
}

TEST(FullyShard, Bf16ParametersWithFloat32ReductionStayWithinBf16Tolerance) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/fsdp.pt";
  ASSERT_EQ(run(reference("20 " + ref + " --float")), 0);
  ASSERT_EQ(run(launch(2, "train 20 " + out + " --bf16")), 0);
  const double diff = max_difference(out, ref);
  EXPECT_GT(diff, 0.0) << "the parameters were not computed in bf16";
  EXPECT_LE(diff, 2e-2);
  fs::remove_all(dir);
}

// Two processes by hand (brasarun would stop rank 0 as soon as rank 1 dies).
int run_die(const std::string& phase) {
  return brasa::testing::run_two_ranks_by_hand(std::string(BRASA_FSDP_WORKER) + " die " + phase);
}

TEST(FullyShard, ARankKilledBeforeAnAllGatherIsNamedByTheSurvivor) {
  EXPECT_EQ(run_die("allgather"), 0);
}

TEST(FullyShard, ARankKilledBeforeAReduceScatterIsNamedByTheSurvivor) {
  EXPECT_EQ(run_die("reduce-scatter"), 0);
}

}  // namespace
