// The disk cache: the compiler missing, a corrupt cache file, and two processes compiling the same
// graph into one cache directory at once.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <fstream>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using Cache = CompileTest;

struct WorkerRun {
  int status;
  std::string out;
};

/// Runs compile_worker with `scale` (which picks the graph) in the test's cache directory.
WorkerRun worker(const std::string& dir, const std::string& scale) {
  const std::string cmd =
      "BRASA_COMPILE_CACHE='" + dir + "' '" BRASA_COMPILE_WORKER "' " + scale + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  WorkerRun r{-1, ""};
  if (!p) return r;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) r.out += buf;
  r.status = pclose(p);
  return r;
}

TEST_F(Cache, MissingCompilerWarnsOnceAndRunsTheGraphOpByOp) {
  const char* old = getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/nonexistent-brasa-path", 1);
  auto fn = [](const Tensor& x) { return (x * 1.5 + 2.5) * (x - 0.125); };
  auto f = compile(fn);
  auto g = compile([](const Tensor& x) { return (x + 7.0) * 3.0; });
  Tensor x = randn({100});
  f(x);
  Tensor y = f(x);
  g(x);
  g(x);
  setenv("PATH", saved.c_str(), 1);
  EXPECT_TRUE(bitwise_equal(y, fn(x)));
  EXPECT_EQ(compile_stats().compiler_runs, 0);
  EXPECT_EQ(compile_stats().compiler_failures, 2);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("the C++ compiler 'g++' was not found"), std::string::npos);
}

TEST_F(Cache, SecondProcessHitsTheDiskCacheAndACorruptFileIsRebuilt) {
  WorkerRun first = worker(dir_, "1.5");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("runs=1 disk=0 failures=0"), std::string::npos) << first.out;
  WorkerRun second = worker(dir_, "1.5");
  ASSERT_EQ(second.status, 0) << second.out;
  EXPECT_NE(second.out.find("runs=0 disk=1 failures=0"), std::string::npos) << second.out;
  auto sos = files_ending(".so");
  ASSERT_EQ(sos.size(), 1u);
  {
    std::ofstream corrupt(sos[0], std::ios::binary | std::ios::trunc);
    corrupt << "not a shared object";
  }
  WorkerRun third = worker(dir_, "1.5");
  ASSERT_EQ(third.status, 0) << third.out;
  EXPECT_NE(third.out.find("is corrupt"), std::string::npos) << third.out;
  EXPECT_NE(third.out.find("runs=1 disk=0 failures=0"), std::string::npos) << third.out;
  WorkerRun fourth = worker(dir_, "1.5");
  EXPECT_NE(fourth.out.find("runs=0 disk=1"), std::string::npos) << fourth.out;
}

TEST_F(Cache, TwoProcessesCompileTheSameGraphIntoOneCache) {
  const std::string cmd = "BRASA_COMPILE_CACHE='" + dir_ + "' '" BRASA_COMPILE_WORKER "' 2.25";
  FILE* a = popen(cmd.c_str(), "r");
  FILE* b = popen(cmd.c_str(), "r");
  ASSERT_TRUE(a && b);
  char buf[256];
  std::string out_a, out_b;
  while (fgets(buf, sizeof buf, a)) out_a += buf;
  while (fgets(buf, sizeof buf, b)) out_b += buf;
  EXPECT_EQ(pclose(a), 0) << out_a;
  EXPECT_EQ(pclose(b), 0) << out_b;
  EXPECT_EQ(files_ending(".so").size(), 1u);
  EXPECT_EQ(files_ending(".tmp").size(), 0u);
  WorkerRun after = worker(dir_, "2.25");
  EXPECT_NE(after.out.find("runs=0 disk=1"), std::string::npos) << after.out;
}

}  // namespace
}  // namespace brasa::compile_test
