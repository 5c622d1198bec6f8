// Distributed checkpoints (brasa::distributed::checkpoint): resharding saves across world sizes
// 4 -> 2 -> 1 -> 4 bit-identical (model and AdamW state), resuming on another world size equal to
// an uninterrupted run, a corrupt shard failing the load on every rank with nothing changed
// (dcp_worker, started by brasarun), and in one process: typed errors for missing, short and
// corrupt files and mismatched entries, and a failed save leaving the previous checkpoint loadable.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "support/brasarun_launch.h"

namespace {
namespace fs = std::filesystem;
namespace dcp = brasa::distributed::checkpoint;
using namespace brasa;

std::string work_dir() { return brasa::testing::scratch_dir("brasa_dcp_"); }
int run(const std::string& cmd) { return brasa::testing::run_bounded(cmd); }
std::string ranks(int n, const std::string& args) {
  return brasa::testing::brasarun_command(BRASA_BRASARUN, n, BRASA_DCP_WORKER, args);
}
std::string alone(const std::string& args) { return std::string(BRASA_DCP_WORKER) + " " + args; }

TEST(DistributedCheckpoint, Reshard4To2To1To4IsBitIdentical) {
  const std::string d = work_dir();
  ASSERT_EQ(run(ranks(4, "save " + d + "/a 3")), 0);
  ASSERT_EQ(run(ranks(2, "resume " + d + "/a " + d + "/b 0")), 0);         // 4 -> 2
  ASSERT_EQ(run(alone("resume " + d + "/b " + d + "/c 0")), 0);            // 2 -> 1 (plain model)
  ASSERT_EQ(run(ranks(4, "resume " + d + "/c " + d + "/e 0")), 0);         // 1 -> 4
  ASSERT_EQ(run(ranks(1, "resume " + d + "/a " + d + "/f 0")), 0);         // 4 -> 1 (one rank)
  ASSERT_EQ(run(ranks(4, "resume " + d + "/a " + d + "/g 0 --hsdp")), 0);  // 4 -> 2 x 2 HSDP
  ASSERT_EQ(run(ranks(2, "resume " + d + "/g " + d + "/h 0")), 0);         // 2 x 2 HSDP -> 2
  for (const char* other : {"b", "c", "e", "f", "g", "h"}) {
    EXPECT_EQ(run(alone("compare " + d + "/a " + d + "/" + other)), 0) << other;
  }
  EXPECT_EQ(dcp::read_metadata(d + "/a").world_size, 4);
  EXPECT_EQ(dcp::read_metadata(d + "/c").world_size, 1);
  // HSDP stores one replica: the same bytes as the 4-rank FSDP save.
  int64_t a_bytes = 0, g_bytes = 0;
  for (const auto& f : dcp::read_metadata(d + "/a").files) a_bytes += f.size;
  for (const auto& f : dcp::read_metadata(d + "/g").files) g_bytes += f.size;
  EXPECT_EQ(a_bytes, g_bytes);
  fs::remove_all(d);
}

TEST(DistributedCheckpoint, ResumeOnAnotherWorldSizeEqualsTheUninterruptedRun) {
  const std::string d = work_dir();
  ASSERT_EQ(run(ranks(4, "save " + d + "/full 6")), 0);
  ASSERT_EQ(run(ranks(4, "save " + d + "/half 3")), 0);
  ASSERT_EQ(run(ranks(2, "resume " + d + "/half " + d + "/resumed 3")), 0);
  ASSERT_EQ(run(alone("final " + d + "/full " + d + "/full.pt")), 0);
  ASSERT_EQ(run(alone("final " + d + "/resumed " + d + "/resumed.pt")), 0);
  std::vector<Tensor> x, y;
  brasa::load(x, d + "/full.pt");
  brasa::load(y, d + "/resumed.pt");
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE((x[i] - y[i]).abs().max().item<double>(), 1e-12) << "parameter " << i;
  }
  fs::remove_all(d);
}

// Note: brasarun restarts the whole group after rank 1's SIGKILL; every rank resumes from the
// last committed checkpoint (step 4) and the run ends bit-identical to the uninterrupted one.
TEST(DistributedCheckpoint, AKilledRankRestartedByBrasarunResumesBitIdentical) {
  const std::string d = work_dir();
  ASSERT_EQ(run(ranks(4, "elastic " + d + "/straight 8 2 0 " + d + "/straight.pt")), 0);
  const std::string log = d + "/restarted.log";
  ASSERT_EQ(
      run(BRASA_BRASARUN + std::string(" --nproc-per-node 4 --master-port 0 --max-restarts 1 ") +
          BRASA_DCP_WORKER + " elastic " + d + "/restarted 8 2 5 " + d + "/restarted.pt > " + log +
          " 2>&1"),
      0);
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("resumed from the committed step 4"), std::string::npos) << text;
  EXPECT_NE(text.find("restarting"), std::string::npos) << text;
  std::vector<Tensor> x, y;
  brasa::load(x, d + "/straight.pt");
  brasa::load(y, d + "/restarted.pt");
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_TRUE(equal(x[i], y[i])) << "entry " << i;
  fs::remove_all(d);
}

TEST(DistributedCheckpoint, ACorruptShardFailsTheLoadOnEveryRankAndChangesNothing) {
  const std::string d = work_dir();
  EXPECT_EQ(run(ranks(2, "corrupt-load " + d + "/c")), 0);
  fs::remove_all(d);
}

TEST(DistributedCheckpoint, ReshardReadsOnlyTheNeededSlices) {
  const std::string d = work_dir();
  ASSERT_EQ(run(ranks(4, "bench " + d + "/m save")), 0);
  EXPECT_EQ(run(ranks(2, "bench " + d + "/m load")), 0);
  EXPECT_EQ(run(ranks(3, "bench " + d + "/m load")), 0);  // pieces across stored chunks
  fs::remove_all(d);
}

// --- one process, no group ---

template <typename E, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

struct Fixture {
  std::string dir = work_dir() + "/one";
  Tensor w = arange(0, 300000, TensorOptions().dtype(kDouble)).reshape({1000, 300});
  Tensor b = arange(0, 5, TensorOptions().dtype(kFloat));
  dcp::StateDict sd() {
    dcp::StateDict s;
    s.add("w", w).add("b", b);
    return s;
  }
  std::string shard() const {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".distcp") return e.path().string();
    }
    return {};
  }
  ~Fixture() { fs::remove_all(fs::path(dir).parent_path()); }
};

TEST(DistributedCheckpoint, OneProcessRoundTripReadsOnlyTheRequestedSlice) {
  Fixture f;
  auto info = dcp::save(f.sd(), f.dir);
  EXPECT_EQ(info.total_bytes, 300000 * 8 + 5 * 4);
  Tensor w2 = zeros({1000, 300}, kDouble), b2 = zeros({5}, kFloat);
  dcp::StateDict back;
  back.add("w", w2).add("b", b2);
  dcp::load(back, f.dir);
  EXPECT_TRUE(equal(w2, f.w));
  EXPECT_TRUE(equal(b2, f.b));
}

TEST(DistributedCheckpoint, MissingShortAndCorruptFilesAreTypedErrorsNamingFileAndTensor) {
  Fixture f;
  dcp::save(f.sd(), f.dir);
  Tensor w2 = zeros({1000, 300}, kDouble), b2 = zeros({5}, kFloat);
  auto load = [&] {
    dcp::StateDict s;
    s.add("w", w2).add("b", b2);
    dcp::load(s, f.dir);
  };
  const std::string shard = f.shard();
  const std::string name = fs::path(shard).filename().string();
  {  // a flipped byte in the last block of w
    std::fstream io(shard, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(300000 * 8 - 10);
    io.put('\x7f');
  }
  std::string msg = error_of<SerializationError>(load);
  EXPECT_NE(msg.find(name), std::string::npos) << msg;
  EXPECT_NE(msg.find("'w'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("CRC"), std::string::npos) << msg;
  EXPECT_EQ(w2.abs().sum().item<double>(), 0.0) << "half loaded";
  EXPECT_EQ(b2.abs().sum().item<double>(), 0.0) << "half loaded";
  fs::resize_file(shard, 1000);
  msg = error_of<SerializationError>(load);
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
  fs::remove(shard);
  msg = error_of<SerializationError>(load);
  EXPECT_NE(msg.find("cannot open shard file"), std::string::npos) << msg;
  EXPECT_NE(msg.find(name), std::string::npos) << msg;
  EXPECT_EQ(w2.abs().sum().item<double>(), 0.0) << "half loaded";
}

TEST(DistributedCheckpoint, MismatchedEntriesAreValueErrorsNamingTheEntry) {
  Fixture f;
  dcp::save(f.sd(), f.dir);
  Tensor w2 = zeros({1000, 299}, kDouble);
  dcp::StateDict s;
  s.add("w", w2);
  std::string msg = error_of<ValueError>([&] { dcp::load(s, f.dir); });
  EXPECT_NE(msg.find("'w'"), std::string::npos) << msg;
  dcp::StateDict t;
  Tensor c = zeros({2});
  t.add("c", c);
  msg = error_of<ValueError>([&] { dcp::load(t, f.dir); });
  EXPECT_NE(msg.find("no tensor 'c'"), std::string::npos) << msg;
  dcp::StateDict dtype;
  Tensor b = zeros({5}, kDouble);
  dtype.add("b", b);
  msg = error_of<ValueError>([&] { dcp::load(dtype, f.dir); });
  EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
  EXPECT_THROW(s.add("w", w2), ValueError);  // repeated
  EXPECT_THROW(s.add("has space", w2), ValueError);
}

TEST(DistributedCheckpoint, AFailedSaveLeavesThePreviousCheckpointLoadable) {
  Fixture f;
  const auto first = dcp::save(f.sd(), f.dir);
  // The next save's shard file cannot be written (a directory holds its name).
  fs::create_directories(f.dir + "/__" + std::to_string(first.generation + 1) + "_0.distcp/x");
  Tensor w_new = f.w + 1;
  dcp::StateDict changed;
  changed.add("w", w_new).add("b", f.b);
  EXPECT_THROW(dcp::save(changed, f.dir), Error);
  Tensor w2 = zeros({1000, 300}, kDouble), b2 = zeros({5}, kFloat);
  dcp::StateDict back;
  back.add("w", w2).add("b", b2);
  dcp::load(back, f.dir);
  EXPECT_TRUE(equal(w2, f.w));
  EXPECT_EQ(dcp::read_metadata(f.dir).generation, first.generation);
  // A later save succeeds, commits the next generation and removes the old shard files.
  fs::remove_all(f.dir + "/__" + std::to_string(first.generation + 1) + "_0.distcp");
  const auto second = dcp::save(changed, f.dir);
  EXPECT_EQ(second.generation, first.generation + 1);
  int shards = 0;
  for (const auto& e : fs::directory_iterator(f.dir)) shards += e.path().extension() == ".distcp";
  EXPECT_EQ(shards, 1);
  dcp::load(back, f.dir);
  EXPECT_TRUE(equal(w2, w_new));
}

}  // namespace
