// DistributedDataParallel across processes started by brasarun (loopback, 1-4 ranks): equal to
// single-process training on the global batch, bit-identical parameters across ranks after every
// step (checked inside ddp_worker), no_sync accumulation, unused parameters.

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
#include "brasa/distributed/ddp.h"
#include "support/brasarun_launch.h"

namespace {
namespace fs = std::filesystem;

std::string work_dir() { return brasa::testing::scratch_dir("brasa_ddp_"); }

int run(const std::string& cmd) { return brasa::testing::run_bounded(cmd); }

std::string launch(int ranks, const std::string& args) {
  return brasa::testing::brasarun_command(BRASA_BRASARUN, ranks, BRASA_DDP_WORKER, args);
}

double max_difference(const std::string& a, const std::string& b) {
  std::vector<brasa::Tensor> x, y;
  brasa::load(x, a);
  brasa::load(y, b);
  EXPECT_EQ(x.size(), y.size());
  double worst = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    worst = std::max(worst, (x[i] - y[i]).abs().max().item<double>());
  return worst;
}

TEST(DistributedDataParallel, BucketAssignment) {
  using brasa::distributed::compute_bucket_assignment_by_size;
  std::vector<brasa::Tensor> t{brasa::zeros({256}), brasa::zeros({256}), brasa::zeros({512}),
                               brasa::zeros({10}, brasa::kDouble), brasa::zeros({1000})};
  // Reverse order; first bucket capped at 1 KiB, the rest at 4 KiB; one dtype per bucket.
  auto b = compute_bucket_assignment_by_size(t, {4, 3, 2, 1, 0}, 1024, 4096);
  EXPECT_EQ(b, (std::vector<std::vector<size_t>>{{4}, {3}, {2, 1, 0}}));
  b = compute_bucket_assignment_by_size(t, {0, 1, 2}, 1024, 1024);
  EXPECT_EQ(b, (std::vector<std::vector<size_t>>{{0}, {1}, {2}}));
}

TEST(DistributedDataParallel, EqualsSingleProcessTrainingOnTheGlobalBatch) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 100 " + ref), 0);
  for (int ranks : {1, 2, 3, 4}) {
    const std::string out = dir + "/ddp" + std::to_string(ranks) + ".pt";
    ASSERT_EQ(run(launch(ranks, "train 100 " + out)), 0) << ranks << " ranks";
    EXPECT_LE(max_difference(out, ref), 1e-6) << ranks << " ranks";
  }
  fs::remove_all(dir);
}

TEST(DistributedDataParallel, AdamMatchesToo) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/ddp.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 50 " + ref + " --adam"), 0);
  ASSERT_EQ(run(launch(3, "train 50 " + out + " --adam")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-6);
  fs::remove_all(dir);
}

TEST(DistributedDataParallel, NoSyncAccumulationEqualsOneStepOnTheLargerBatch) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/ddp.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 20 " + ref + " --no-sync 3"), 0);
  ASSERT_EQ(run(launch(2, "train 20 " + out + " --no-sync 3")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-6);
  fs::remove_all(dir);
}

TEST(DistributedDataParallel, CompressionHooksStayCloseToTheReference) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 20 " + ref), 0);
  for (const char* hook : {"--fp16", "--bf16"}) {
    const std::string out = dir + "/ddp.pt";
    ASSERT_EQ(run(launch(2, "train 20 " + out + " " + hook)), 0) << hook;
    const double diff = max_difference(out, ref);
    EXPECT_GT(diff, 0.0) << hook << ": the hook did not compress";
    EXPECT_LE(diff, 5e-3) << hook;  // measured: fp16 1e-4, bf16 8e-4
  }
  fs::remove_all(dir);
}

TEST(DistributedDataParallel, RegisteredHookThatAveragesEqualsPlainDdp) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/ddp.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 20 " + ref), 0);
  ASSERT_EQ(run(launch(2, "train 20 " + out + " --hook-averages")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-6);
  fs::remove_all(dir);
}

TEST(DistributedDataParallel, JoinHandlesUnevenInputs) {
  // Rank r has 5 + 2r batches; no rank hangs, and the result averages over the active ranks
  // (or, with --initial, over the whole group).
  const std::string dir = work_dir();
  for (const char* divisor : {"", " --initial"}) {
    for (int ranks : {2, 3}) {
      const std::string ref = dir + "/ref.pt", out = dir + "/ddp.pt";
      ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " uneven-reference " + std::to_string(ranks) +
                    " " + ref + divisor),
                0);
      ASSERT_EQ(run(launch(ranks, "uneven " + out + divisor)), 0) << ranks << " ranks";
      EXPECT_LE(max_difference(out, ref), 1e-6) << ranks << " ranks" << divisor;
    }
  }
  fs::remove_all(dir);
}

namespace {
// Two processes by hand (brasarun would stop rank 0 as soon as rank 1 dies): rank 1 SIGKILLs itself
// and rank 0 must exit 0 after an error naming rank 1 (141 would be a death by SIGPIPE).
int run_die(const std::string& mode) {
  return brasa::testing::run_two_ranks_by_hand(std::string(BRASA_DDP_WORKER) + " " + mode);
}
}  // namespace

TEST(DistributedDataParallel, AKilledRankIsNamedByTheSurvivors) { EXPECT_EQ(run_die("die"), 0); }

TEST(DistributedDataParallel, ARankKilledMidAllreduceIsNamedByTheSurvivor) {
  // Note [SIGPIPE]; kill_mid_allreduce.py repeats this 50 times.
  EXPECT_EQ(run_die("die-mid"), 0);
}

TEST(DistributedDataParallel, UnusedParameters) {
  // Without find_unused_parameters: a clear error naming the parameter at the next forward.
  EXPECT_EQ(run(launch(2, "unused")), 0);
  // With it: training works and still equals the reference.
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/ddp.pt";
  ASSERT_EQ(run(std::string(BRASA_DDP_WORKER) + " reference 20 " + ref), 0);
  ASSERT_EQ(run(launch(2, "train 20 " + out + " --find-unused")), 0);
  EXPECT_LE(max_difference(out, ref), 1e-6);
  fs::remove_all(dir);
}

}  // namespace
