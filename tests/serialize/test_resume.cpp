// Training checkpoints: resuming in a new process reproduces the uninterrupted run bit for bit,
// and a writer killed in the middle of a checkpoint leaves the previous one loadable.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/serialize/archive.h"
#include "brasa/serialize/checkpoint.h"

namespace {
namespace fs = std::filesystem;
using brasa::serialize::InputArchive;

std::string temp_dir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("brasa_resume_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

int run_worker(const std::vector<std::string>& args) {
  std::string cmd = BRASA_RESUME_WORKER;
  for (const auto& a : args) cmd += " '" + a + "'";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every tensor of two nested dicts is bit-identical (same keys, dtypes, shapes, bytes).
void expect_identical(const brasa::IValue& a, const brasa::IValue& b, const std::string& path) {
  ASSERT_EQ(a.tagKind(), b.tagKind()) << path;
  if (a.isTensor()) {
    const auto& x = a.toTensor();
    const auto& y = b.toTensor();
    ASSERT_EQ(x.scalar_type(), y.scalar_type()) << path;
    ASSERT_EQ(x.sizes(), y.sizes()) << path;
    EXPECT_TRUE(brasa::equal(x, y)) << path << " differs";
  } else if (a.isGenericDict()) {
    const auto da = a.toGenericDict(), db = b.toGenericDict();
    ASSERT_EQ(da.size(), db.size()) << path;
    for (const auto& e : da) {
      ASSERT_TRUE(db.contains(e.key())) << path;
      const std::string key =
          e.key().isString() ? e.key().toStringRef() : std::to_string(e.key().toInt());
      expect_identical(e.value(), db.at(e.key()), path + "/" + key);
    }
  } else if (a.isList()) {
    ASSERT_EQ(a.toListRef().size(), b.toListRef().size()) << path;
    for (size_t i = 0; i < a.toListRef().size(); ++i)
      expect_identical(a.toListRef()[i], b.toListRef()[i], path + "[" + std::to_string(i) + "]");
  } else if (a.isDouble()) {
    EXPECT_EQ(a.toDouble(), b.toDouble()) << path;
  } else if (a.isInt()) {
    EXPECT_EQ(a.toInt(), b.toInt()) << path;
  }
}

TEST(TrainingCheckpoint, ResumeInNewProcessIsBitIdentical) {
  const std::string straight = temp_dir("straight"), resumed = temp_dir("resumed");
  const std::string a = straight + "/final.pt", b = resumed + "/final.pt";
  // 100 examples in batches of 16: 7 batches an epoch, so 40 steps cross five epoch ends and the
  // interruption at step 19 falls mid-epoch.
  ASSERT_EQ(run_worker({"train", straight, "40", "0", a}), 0);
  ASSERT_EQ(run_worker({"train", resumed, "40", "19", b}), 0);
  ASSERT_FALSE(fs::exists(b));
  ASSERT_EQ(run_worker({"train", resumed, "40", "0", b}), 0);
  InputArchive x, y;
  x.load_from(a);
  y.load_from(b);
  expect_identical(x.ivalue(), y.ivalue(), "");
  brasa::serialize::Checkpointer ckpt(resumed, 2);
  EXPECT_EQ(ckpt.list().size(), 2u);  // keep_last
  fs::remove_all(straight);
  fs::remove_all(resumed);
}

TEST(TrainingCheckpoint, ResumeAtAnEpochBoundaryIsBitIdentical) {
  const std::string straight = temp_dir("straight7"), resumed = temp_dir("resumed7");
  const std::string a = straight + "/final.pt", b = resumed + "/final.pt";
  ASSERT_EQ(run_worker({"train", straight, "20", "0", a}), 0);
  ASSERT_EQ(run_worker({"train", resumed, "20", "7", b}), 0);
  ASSERT_EQ(run_worker({"train", resumed, "20", "0", b}), 0);
  InputArchive x, y;
  x.load_from(a);
  y.load_from(b);
  expect_identical(x.ivalue(), y.ivalue(), "");
  fs::remove_all(straight);
  fs::remove_all(resumed);
}

// Starts the hammer worker, lets it write `min_saves` checkpoints plus `delay`, kills it.
void kill_mid_write(const std::string& dir, int min_saves, std::chrono::milliseconds delay) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::execl(BRASA_RESUME_WORKER, BRASA_RESUME_WORKER, "hammer", dir.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  FILE* out = ::fdopen(fds[0], "r");
  char line[64];
  int saves = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (saves < min_saves && std::chrono::steady_clock::now() < deadline &&
         std::fgets(line, sizeof line, out) != nullptr)
    ++saves;
  std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::fclose(out);
  ASSERT_EQ(saves, min_saves) << "the writer did not produce checkpoints";
}

TEST(TrainingCheckpoint, KilledWriterLeavesPreviousCheckpointLoadable) {
  for (int delay_ms : {0, 3, 11, 29}) {
    const std::string dir = temp_dir("kill" + std::to_string(delay_ms));
    kill_mid_write(dir, 2, std::chrono::milliseconds(delay_ms));
    brasa::serialize::Checkpointer ckpt(dir, 2);
    for (const auto& file : ckpt.list()) {  // every complete-named file is whole
      InputArchive archive;
      EXPECT_NO_THROW(archive.load_from(file)) << file;
    }
    brasa::nn::Linear big(1024, 4096);
    ckpt.track("model", *big);
    auto step = ckpt.restore();
    ASSERT_TRUE(step.has_value()) << "no loadable checkpoint after a kill at +" << delay_ms
                                  << " ms";
    EXPECT_GE(*step, 2);
    EXPECT_TRUE(
        brasa::equal(big->weight, brasa::full_like(big->weight, static_cast<double>(*step))))
        << "checkpoint " << *step << " holds another step's weights";
    fs::remove_all(dir);
  }
}

}  // namespace
