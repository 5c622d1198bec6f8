// Pipeline parallelism across processes started by brasarun (loopback): GPipe and 1F1B on 2 and
// 4 stages, interleaved 1F1B with 2 stages per rank on 2 and 4 ranks, equal single-process
// training with gradient accumulation over the same micro-batches,
// DDP x PP on a 2 x 2 mesh too, and a stage whose input shape does not match fails every stage
// with PipeliningShapeError (pp_worker).

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "brasa/brasa.h"
#include "support/brasarun_launch.h"

namespace {
namespace fs = std::filesystem;
using namespace brasa;

std::string work_dir() { return brasa::testing::scratch_dir("brasa_pp_"); }
int run(const std::string& cmd) { return brasa::testing::run_bounded(cmd); }
std::string ranks(int n, const std::string& args) {
  return brasa::testing::brasarun_command(BRASA_BRASARUN, n, BRASA_PP_WORKER, args);
}

// The largest difference between the reference's parameters and the stages' in order.
double difference(const std::string& ref, const std::string& out, int stages) {
  std::vector<Tensor> want, got;
  brasa::load(want, ref);
  for (int s = 0; s < stages; ++s) {
    std::vector<Tensor> part;
    brasa::load(part, out + ".stage" + std::to_string(s) + ".pt");
    got.insert(got.end(), part.begin(), part.end());
  }
  EXPECT_EQ(want.size(), got.size());
  double worst = 0;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    if (want[i].sizes() != got[i].sizes()) return 1e300;
    worst = std::max(worst, (want[i] - got[i]).abs().max().item<double>());
  }
  return worst;
}

TEST(PipelineParallel, GPipeAnd1F1BEqualSingleProcessGradientAccumulation) {
  const std::string d = work_dir();
  ASSERT_EQ(run(std::string(BRASA_PP_WORKER) + " reference 20 4 " + d + "/ref.pt"), 0);
  for (const char* schedule : {"gpipe", "1f1b"}) {
    for (int stages : {2, 4}) {
      const std::string out = d + "/" + schedule + std::to_string(stages);
      ASSERT_EQ(run(ranks(stages, std::string("train ") + schedule + " 20 4 " + out)), 0)
          << schedule << " on " << stages;
      const double diff = difference(d + "/ref.pt", out, stages);
      std::printf("%s on %d stages: largest parameter difference %.3g\n", schedule, stages, diff);
      EXPECT_LE(diff, 1e-12) << schedule << " on " << stages;
    }
  }
  fs::remove_all(d);
}

// Interleaved 1F1B, two stages per rank: 4 stages on 2 ranks (rank 0 holds stages 0 and 2, whose
// activations wrap around from rank 1), 8 stages of one module on 4 ranks.
TEST(PipelineParallel, Interleaved1F1BOn2And4RanksEqualsSingleProcessGradientAccumulation) {
  const std::string d = work_dir();
  ASSERT_EQ(run(std::string(BRASA_PP_WORKER) + " reference 20 4 " + d + "/ref.pt"), 0);
  for (int ranks_ : {2, 4}) {
    const std::string out = d + "/interleaved" + std::to_string(ranks_);
    ASSERT_EQ(run(ranks(ranks_, "train interleaved 20 4 " + out)), 0) << "on " << ranks_;
    const double diff = difference(d + "/ref.pt", out, 2 * ranks_);
    std::printf("interleaved 1F1B on %d ranks x 2 stages: largest parameter difference %.3g\n",
                ranks_, diff);
    EXPECT_LE(diff, 1e-12) << "on " << ranks_;
  }
  fs::remove_all(d);
}

TEST(PipelineParallel, DdpTimesPipelineOnA2x2MeshEqualsSingleProcessTraining) {
  const std::string d = work_dir();
  // 2 data-parallel ranks x 2 micro-batches each = the reference's 4 micro-batches.
  ASSERT_EQ(run(std::string(BRASA_PP_WORKER) + " reference 20 4 " + d + "/ref.pt"), 0);
  ASSERT_EQ(run(ranks(4, "train 1f1b 20 2 " + d + "/dpp --dp")), 0);
  const double diff = difference(d + "/ref.pt", d + "/dpp", 2);
  std::printf("DDP x PP on 2 x 2: largest parameter difference %.3g\n", diff);
  EXPECT_LE(diff, 1e-12);
  fs::remove_all(d);
}

// The same through DistributedDataParallel: each stage wrapped over "dp", no_sync for all but
// the last micro-batch's backward, whose reducer averages the accumulated gradients. GPipe and
// 1F1B (their last backward is the last micro-batch's on every stage).
TEST(PipelineParallel, DistributedDataParallelWrappingStagesOnA2x2MeshEqualsSingleProcess) {
  const std::string d = work_dir();
  ASSERT_EQ(run(std::string(BRASA_PP_WORKER) + " reference 20 4 " + d + "/ref.pt"), 0);
  for (const std::string kind : {"1f1b", "gpipe"}) {
    ASSERT_EQ(run(ranks(4, "train " + kind + " 20 2 " + d + "/" + kind + " --ddp")), 0);
    const double diff = difference(d + "/ref.pt", d + "/" + kind, 2);
    std::printf("DistributedDataParallel x PP (%s) on 2 x 2: largest parameter difference %.3g\n",
                kind.c_str(), diff);
    EXPECT_LE(diff, 1e-12);
  }
  fs::remove_all(d);
}

TEST(PipelineParallel, MismatchedStageShapesFailEveryStageNamingTheShapes) {
  EXPECT_EQ(run(ranks(4, "mismatch")), 0);
  EXPECT_EQ(run(ranks(2, "mismatch-interleaved")), 0);  // 4 stages, 2 per rank
}

}  // namespace
