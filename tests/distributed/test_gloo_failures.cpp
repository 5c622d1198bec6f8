// ProcessGroupGloo failure modes: bad arguments (typed errors naming the op), a rank that never
// joins (DistributedTimeoutError at the timeout), a lost peer (DistributedError, fast), and a
// multi-process group (this test binary re-spawned as ranks 1..2 over a directory store).

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <future>

#include "brasa/brasa.h"
#include "support/gloo_test_store.h"

extern char** environ;

namespace brasa_gloo_test {
namespace {

template <typename E, typename F>
std::string expect_throw(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no exception";
  return "";
}

TEST(GlooErrors, BadArgumentsNameTheOp) {
  run_ranks(2, [](ProcessGroupGloo& pg, int r) {
    std::vector<Tensor> none, two{brasa::ones({2}), brasa::ones({2})};
    auto m = expect_throw<ValueError>([&] { pg.allreduce(none); });
    EXPECT_NE(m.find("allreduce: expected exactly 1 tensor"), std::string::npos) << m;
    expect_throw<ValueError>([&] { pg.broadcast(two); });
    std::vector<Tensor> one{brasa::ones({2, 3})};
    m = expect_throw<IndexError>([&] { pg.broadcast(one, {5}); });
    EXPECT_NE(m.find("rootRank 5 is out of range for a group of size 2"), std::string::npos) << m;
    std::vector<Tensor> flags{brasa::ones({2}, TensorOptions(kBool))};
    m = expect_throw<TypeError>([&] { pg.allreduce(flags); });
    EXPECT_NE(m.find("unsupported dtype"), std::string::npos) << m;
    std::vector<std::vector<Tensor>> ag{{brasa::ones({2, 3}), brasa::ones({3, 2})}};
    m = expect_throw<ValueError>([&] { pg.allgather(ag, one); });
    EXPECT_NE(m.find("outputTensors[0][1] has shape [3, 2] but inputTensors[0] has shape [2, 3]"),
              std::string::npos)
        << m;
    std::vector<std::vector<Tensor>> agd{
        {brasa::ones({2, 3}), brasa::ones({2, 3}, TensorOptions(kDouble))}};
    expect_throw<TypeError>([&] { pg.allgather(agd, one); });
    std::vector<std::vector<Tensor>> short_list{{brasa::ones({2, 3})}};
    m = expect_throw<ValueError>([&] { pg.allgather(short_list, one); });
    EXPECT_NE(m.find("must hold 2 tensors (one per rank), got 1"), std::string::npos) << m;
    std::vector<std::vector<Tensor>> gout{{brasa::ones({2, 3}), brasa::ones({2, 3})}};
    if (r == 1) {
      m = expect_throw<ValueError>([&] { pg.gather(gout, one); });
      EXPECT_NE(m.find("is not the root"), std::string::npos) << m;
    }
    Tensor in = brasa::ones({5, 2}), out = brasa::ones({5, 2});
    std::vector<int64_t> bad{1, 1}, none_s;
    m = expect_throw<ValueError>([&] { pg.alltoall_base(out, in, none_s, bad); });
    EXPECT_NE(m.find("split sizes sum to 2 but dim 0 of inputTensor is 5"), std::string::npos) << m;
    m = expect_throw<ValueError>([&] { pg.send(one, r, 0); });
    EXPECT_NE(m.find("send: dstRank"), std::string::npos) << m;
    std::vector<Tensor> meta{brasa::empty({2}, TensorOptions(kFloat).device(Device(kMeta)))};
    m = expect_throw<ValueError>([&] { pg.allreduce(meta); });
    EXPECT_NE(m.find("must be a CPU tensor"), std::string::npos) << m;
    pg.barrier()->wait();  // the group still works after argument errors
  });
  auto store = make_intrusive<MemStore>();
  expect_throw<ValueError>(
      [&] { ProcessGroupGloo(store, 2, 2, loopback_options(milliseconds(1000))); });
}

TEST(GlooFailures, RankThatNeverJoinsTimesOut) {
  const milliseconds timeout(1000);
  std::promise<void> done;
  auto done_f = done.get_future().share();
  double elapsed = 0;
  std::string message;
  run_ranks(
      2,
      [&](ProcessGroupGloo& pg, int r) {
        if (r == 1) {
          done_f.wait();  // never joins the allreduce; keeps its connections open
          return;
        }
        std::vector<Tensor> t{brasa::ones({1000})};
        auto t0 = std::chrono::steady_clock::now();
        auto work = pg.allreduce(t);
        message = expect_throw<DistributedTimeoutError>([&] { work->wait(); });
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_FALSE(work->isSuccess());
        done.set_value();
      },
      timeout);
  std::printf("[gloo] a rank never joins, timeout 1.000 s: DistributedTimeoutError after %.3f s\n",
              elapsed);
  EXPECT_NEAR(elapsed, 1.0, 0.1);
  EXPECT_NE(message.find("ProcessGroupGloo::allreduce (rank 0 of 2, tag 0"), std::string::npos)
      << message;
  EXPECT_NE(message.find("timed out after 1000 ms"), std::string::npos) << message;
}

TEST(GlooFailures, OpTimeoutOverridesTheGroups) {
  std::promise<void> done;
  auto done_f = done.get_future().share();
  double elapsed = 0;
  run_ranks(2, [&](ProcessGroupGloo& pg, int r) {
    if (r == 1) {
      done_f.wait();
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    BarrierOptions opts;
    opts.timeout = milliseconds(300);
    expect_throw<DistributedTimeoutError>([&] { pg.barrier(opts)->wait(); });
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    done.set_value();
  });
  EXPECT_NEAR(elapsed, 0.3, 0.1);
}

TEST(GlooFailures, LostPeerFailsFast) {
  auto store = make_intrusive<MemStore>();
  double elapsed = 0;
  std::string message;
  std::promise<void> connected;
  std::thread peer([&] {
    ProcessGroupGloo pg(store, 1, 2, loopback_options(milliseconds(5000)));
    pg.barrier()->wait();
  });  // rank 1 leaves right after the barrier
  {
    ProcessGroupGloo pg(store, 0, 2, loopback_options(milliseconds(5000)));
    pg.barrier()->wait();
    peer.join();
    std::vector<Tensor> t{brasa::ones({1000})};
    auto t0 = std::chrono::steady_clock::now();
    message = expect_throw<DistributedError>([&] { pg.allreduce(t)->wait(); });
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::printf("[gloo] lost peer: DistributedError after %.3f s: %s\n", elapsed, message.c_str());
  EXPECT_LT(elapsed, 1.0);
  EXPECT_NE(message.find("ProcessGroupGloo::allreduce (rank 0 of 2"), std::string::npos) << message;
}

TEST(GlooFailures, RendezvousTimesOutWhenARankIsMissing) {
  auto store = make_intrusive<MemStore>();
  auto t0 = std::chrono::steady_clock::now();
  auto m = expect_throw<DistributedTimeoutError>(
      [&] { ProcessGroupGloo(store, 0, 2, loopback_options(milliseconds(500))); });
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(m.find("rendezvous of rank 0 of 2"), std::string::npos) << m;
  EXPECT_LT(elapsed, 2.0);
}

TEST(GlooFailures, RecvWithoutSenderTimesOutNamingThePeer) {
  std::promise<void> done;
  auto done_f = done.get_future().share();
  run_ranks(2, [&](ProcessGroupGloo& pg, int r) {
    if (r == 1) {
      done_f.wait();
      return;
    }
    std::vector<Tensor> t{brasa::zeros({10})};
    auto work = pg.recv(t, 1, 3);
    auto t0 = std::chrono::steady_clock::now();
    auto m = expect_throw<DistributedTimeoutError>([&] { work->wait(milliseconds(200)); });
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_NEAR(elapsed, 0.2, 0.1);
    EXPECT_NE(m.find("ProcessGroupGloo::recv (rank 0 from 1, tag 3"), std::string::npos) << m;
    EXPECT_TRUE(work->isCompleted());
    EXPECT_FALSE(work->isSuccess());
    done.set_value();
  });
}

// ---- multi-process: this binary re-spawned as ranks 1..N-1, rank 0 here ----

void multi_process_body(ProcessGroupGloo& pg, int r, int n) {
  std::vector<Tensor> t{brasa::full({100000}, double(r + 1), TensorOptions(kFloat))};
  pg.allreduce(t)->wait();
  BRASA_CHECK(t[0].equal(brasa::full({100000}, n * (n + 1) / 2.0, TensorOptions(kFloat))),
              "allreduce");
  std::vector<Tensor> b{brasa::full({3}, double(r), TensorOptions(kLong))};
  pg.broadcast(b, {n - 1})->wait();
  BRASA_CHECK(b[0].equal(brasa::full({3}, double(n - 1), TensorOptions(kLong))), "broadcast");
  pg.barrier()->wait();
}

// Run only as a child of ThreeProcesses (--gtest_also_run_disabled_tests with the child env).
TEST(GlooMultiProcess, DISABLED_Child) {
  const char* rank = std::getenv("BRASA_GLOO_CHILD_RANK");
  if (!rank) GTEST_SKIP() << "spawned by GlooMultiProcess.ThreeProcesses";
  const int r = std::atoi(rank), n = std::atoi(std::getenv("BRASA_GLOO_CHILD_SIZE"));
  auto store = make_intrusive<DirStore>(std::getenv("BRASA_GLOO_CHILD_DIR"));
  ProcessGroupGloo pg(store, r, n, loopback_options(milliseconds(5000)));
  multi_process_body(pg, r, n);
}

TEST(GlooMultiProcess, ThreeProcesses) {
  if (std::getenv("BRASA_GLOO_CHILD_RANK")) GTEST_SKIP();
  const int n = 3;
  auto dir = std::filesystem::temp_directory_path() / ("brasa_gloo_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<pid_t> pids;
  for (int r = 1; r < n; ++r) {
    std::vector<std::string> env_s;
    for (char** e = environ; *e; ++e) env_s.emplace_back(*e);
    env_s.push_back("BRASA_GLOO_CHILD_RANK=" + std::to_string(r));
    env_s.push_back("BRASA_GLOO_CHILD_SIZE=" + std::to_string(n));
    env_s.push_back("BRASA_GLOO_CHILD_DIR=" + dir.string());
    std::vector<char*> envp;
    for (auto& s : env_s) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string exe = "/proc/self/exe", filter = "--gtest_filter=GlooMultiProcess.DISABLED_Child",
                also = "--gtest_also_run_disabled_tests";
    char* argv[] = {exe.data(), filter.data(), also.data(), nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()), 0);
    pids.push_back(pid);
  }
  std::string error;
  try {
    auto store = make_intrusive<DirStore>(dir);
    ProcessGroupGloo pg(store, 0, n, loopback_options(milliseconds(5000)));
    multi_process_body(pg, 0, n);
  } catch (const std::exception& e) {
    error = e.what();
  }
  // Reap every child within 10 s; kill the stragglers.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child " << pid << " status " << status;
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(error, "");
}

}  // namespace
}  // namespace brasa_gloo_test
