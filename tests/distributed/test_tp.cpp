// Tensor parallel across processes started by brasarun (loopback): examples/char_gpt's model
// with its blocks parallelized over 2 ranks, and under fully_shard on a 2 x 2 mesh, equals
// single-process training (losses and parameters); a toy model with every other style and
// layout (Embedding both ways, SequenceParallel, Shard(1) activations) likewise; bad plans get
// typed errors. tp_worker checks the collectives of every step itself.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "brasa/brasa.h"
#include "support/brasarun_launch.h"

namespace {
namespace fs = std::filesystem;

std::string work_dir() { return brasa::testing::scratch_dir("brasa_tp_"); }

int run(const std::string& cmd) { return brasa::testing::run_bounded(cmd); }

std::string launch(int ranks, const std::string& args) {
  return brasa::testing::brasarun_command(BRASA_BRASARUN, ranks, BRASA_TP_WORKER, args);
}

std::string single(const std::string& args) { return std::string(BRASA_TP_WORKER) + " " + args; }

// The largest difference of the losses (entry 0) and of the parameters (the rest).
std::pair<double, double> differences(const std::string& a, const std::string& b) {
  std::vector<brasa::Tensor> x, y;
  brasa::load(x, a);
  brasa::load(y, b);
  EXPECT_EQ(x.size(), y.size());
  double losses = 1e300, params = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    EXPECT_EQ(x[i].sizes(), y[i].sizes()) << "entry " << i;
    if (x[i].sizes() != y[i].sizes()) return {1e300, 1e300};
    const double d = (x[i] - y[i]).abs().max().item<double>();
    if (i == 0) {
      losses = d;
    } else {
      params = std::max(params, d);
    }
  }
  return {losses, params};
}

void expect_equal_training(const std::string& ref_args, int ranks, const std::string& args,
                           double tolerance) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/tp.pt";
  ASSERT_EQ(run(single(ref_args + " " + ref)), 0);
  ASSERT_EQ(run(launch(ranks, args + " " + out)), 0);
  const auto [losses, params] = differences(out, ref);
  std::printf("%s on %d ranks against one process: losses %.3g, parameters %.3g\n", args.c_str(),
              ranks, losses, params);
  EXPECT_LE(losses, tolerance);
  EXPECT_LE(params, tolerance);
  fs::remove_all(dir);
}

TEST(TensorParallel, CharGptBlocksOnTwoRanksEqualSingleProcessTrainingDouble) {
  expect_equal_training("gpt-reference 6", 2, "gpt 6", 1e-12);
}

// SGD: in float32 AdamW turns rounding noise into lr-sized steps (tp_worker's make_optimizer).
TEST(TensorParallel, CharGptBlocksOnTwoRanksEqualSingleProcessTrainingFloatSgd) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", out = dir + "/tp.pt";
  ASSERT_EQ(run(single("gpt-reference 6 " + ref + " --float --sgd")), 0);
  ASSERT_EQ(run(launch(2, "gpt 6 " + out + " --float --sgd")), 0);
  const auto [losses, params] = differences(out, ref);
  EXPECT_LE(losses, 1e-6);
  EXPECT_LE(params, 1e-6);
  fs::remove_all(dir);
}

TEST(TensorParallel, FsdpTimesTpOnA2x2MeshEqualsSingleProcessTraining) {
  expect_equal_training("gpt-reference 5", 4, "gpt2d 5", 1e-12);
}

// Sequence parallel end to end in the GPT, on 2 TP ranks and under FSDP x TP on 2 x 2.
TEST(TensorParallel, SequenceParallelCharGptEqualsSingleProcessTraining) {
  const std::string dir = work_dir(), ref = dir + "/ref.pt", tp = dir + "/tp.pt",
                    d2 = dir + "/2d.pt";
  ASSERT_EQ(run(single("gpt-reference 6 " + ref)), 0);
  ASSERT_EQ(run(launch(2, "gpt 6 " + tp + " --sp")), 0);
  ASSERT_EQ(run(launch(4, "gpt2d 6 " + d2 + " --sp")), 0);
  for (const auto& out : {tp, d2}) {
    const auto [losses, params] = differences(out, ref);
    std::printf("sequence parallel %s: losses %.3g, parameters %.3g from one process\n",
                out == tp ? "on 2 TP ranks" : "under FSDP x TP on 2 x 2", losses, params);
    EXPECT_LE(losses, 1e-12);
    EXPECT_LE(params, 1e-12);
  }
  fs::remove_all(dir);
}

TEST(TensorParallel, EmbeddingsSequenceParallelAndShardedActivationsEqualSingleProcess) {
  expect_equal_training("toy-reference 5", 2, "toy 5", 1e-12);
}

// Note [Tensor-parallel RNG]: dropout in a sharded region (after a ColwiseParallel Linear, and a
// SequenceParallel Dropout) draws from the rank's stream, in the replicated region (after the
// RowwiseParallel all-reduce) from the shared seed. Checked: TP on 2 ranks, 5 AdamW steps, equals
// one process whose sharded masks are drawn shard by shard from generators seeded SEED + 2718 + r
// and whose replicated mask comes from manual_seed(SEED) (so the replicated masks are the same on
// both ranks and the sharded ones are the ranks' own draws; tp_worker checks that directly on
// every step); the same seed gives bit-identical runs, another seed another run.
TEST(TensorParallel, DropoutUnderTheRngTrackerEqualsPerRankStreamsAndIsReproducible) {
  const std::string dir = work_dir();
  ASSERT_EQ(run(single("rng-reference 5 " + dir + "/ref.pt 1234")), 0);
  ASSERT_EQ(run(launch(2, "rng 5 " + dir + "/a.pt 1234")), 0);
  ASSERT_EQ(run(launch(2, "rng 5 " + dir + "/b.pt 1234")), 0);
  ASSERT_EQ(run(launch(2, "rng 5 " + dir + "/c.pt 99")), 0);
  const auto [losses, params] = differences(dir + "/a.pt", dir + "/ref.pt");
  std::printf("TP dropout against the per-rank-stream emulation: losses %.3g, parameters %.3g\n",
              losses, params);
  EXPECT_LE(losses, 1e-12);
  EXPECT_LE(params, 1e-12);
  const auto [rerun_losses, rerun_params] = differences(dir + "/a.pt", dir + "/b.pt");
  EXPECT_EQ(rerun_losses, 0.0);
  EXPECT_EQ(rerun_params, 0.0);
  EXPECT_GT(differences(dir + "/a.pt", dir + "/c.pt").first, 1e-6);
  fs::remove_all(dir);
}

// Distributed checkpoint of FSDP x TP on 2 x 2 (fused q/k/v: a rank's share is two boxes):
// saved after 3 AdamW steps, loaded into a plain model in one process and into a fresh 2 x 2
// model, and the single process's save loaded on 2 x 2; each saved again, every model and
// optimizer tensor is bit-identical to the first save.
TEST(TensorParallel, DistributedCheckpointOf2dModelLoadsOn1AndOn2x2BitIdentical) {
  const std::string dir = work_dir(), a = dir + "/a", b = dir + "/b", c = dir + "/c",
                    d = dir + "/d";
  ASSERT_EQ(run(launch(4, "gpt2d-dcp 3 " + a)), 0);
  ASSERT_EQ(run(single("gpt-dcp-resave " + a + " " + b)), 0);
  ASSERT_EQ(run(launch(4, "gpt2d-dcp-resave " + a + " " + c)), 0);
  ASSERT_EQ(run(launch(4, "gpt2d-dcp-resave " + b + " " + d)), 0);
  for (const auto& other : {b, c, d}) EXPECT_EQ(run(single("dcp-compare " + a + " " + other)), 0);
  fs::remove_all(dir);
}

// HSDP x TP on 3-D meshes of 4 ranks, {"dp_replicate", "dp_shard", "tp"} = (2, 1, 2) and (1, 2, 2)
// (fully_shard over the 2-D mesh of the first two dims): 5 float64 AdamW steps equal one process.
// Distributed checkpoints across meshes: saved after 3 steps on (2, 1, 2) (the second replica
// writes nothing), loaded into (1, 2, 2), into the 2 x 2 FSDP x TP mesh and into a plain model in
// one process, each saved again: every model and optimizer tensor bit-identical to the first
// save; and the 2 x 2 save loaded back into (2, 1, 2) likewise.
TEST(TensorParallel, HsdpTimesTpOn3dMeshesTrainsAndCheckpointsAcrossMeshes) {
  expect_equal_training("gpt-reference 5", 4, "gpt3d 5 2 1", 1e-12);
  expect_equal_training("gpt-reference 5", 4, "gpt3d 5 1 2", 1e-12);
  const std::string d = work_dir();
  ASSERT_EQ(run(launch(4, "gpt3d-dcp 3 2 1 - " + d + "/hsdp")), 0);
  ASSERT_EQ(run(launch(4, "gpt3d-dcp 0 1 2 " + d + "/hsdp " + d + "/fsdp_in_3d")), 0);
  ASSERT_EQ(run(launch(4, "gpt2d-dcp-resave " + d + "/hsdp " + d + "/two_d")), 0);
  ASSERT_EQ(run(single("gpt-dcp-resave " + d + "/hsdp " + d + "/single")), 0);
  ASSERT_EQ(run(launch(4, "gpt3d-dcp 0 2 1 " + d + "/two_d " + d + "/back")), 0);
  for (const char* other : {"fsdp_in_3d", "two_d", "single", "back"}) {
    EXPECT_EQ(run(single("dcp-compare " + d + "/hsdp " + d + "/" + other)), 0) << other;
  }
  fs::remove_all(d);
}

TEST(TensorParallel, BadPlansGetTypedErrorsAndChangeNothing) {
  EXPECT_EQ(run(launch(2, "errors")), 0);
}

}  // namespace
