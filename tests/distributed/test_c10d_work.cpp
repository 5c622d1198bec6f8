// c10d::Work's future, abort and sourceRank, in libtorch's spelling (Gloo, 2 ranks on threads).

#include <atomic>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include "distributed/c10d_ranks.h"

namespace {

using namespace std::chrono_literals;

TEST(C10dWork, FutureCompletesWithTheOutputsAndRunsThen) {
  run_c10d_ranks(2, [](c10d::ProcessGroupGloo& pg, int r) {
    std::vector<at::Tensor> tensors{at::full({3}, r + 1.0)};
    c10::intrusive_ptr<c10d::Work> work = pg.allreduce(tensors);
    c10::intrusive_ptr<c10::ivalue::Future> fut = work->getFuture();
    EXPECT_EQ(work->getFuture().get(), fut.get());  // the same future every time
    auto doubled = fut->then(
        [](c10::ivalue::Future& f) { return c10::IValue(f.value().toTensorVector()[0] * 2); },
        c10::TensorType::get());
    EXPECT_EQ(doubled->value().toTensor()[0].item<float>(), 6.0f);
    EXPECT_TRUE(fut->completed());
    EXPECT_EQ(fut->value().toTensorVector()[0][1].item<float>(), 3.0f);
    EXPECT_EQ(doubled->elementType()->name, "Tensor");
    // A future asked for after completion completes at once.
    std::vector<at::Tensor> again{at::ones({1})};
    auto late = pg.allreduce(again);
    late->wait();
    std::atomic<bool> ran{false};
    late->getFuture()->addCallback([&](c10::ivalue::Future& f) { ran = f.hasValue(); });
    EXPECT_TRUE(ran.load());
  });
}

TEST(C10dWork, FutureCarriesTheError) {
  auto work = c10::make_intrusive<c10d::Work>("test op");
  auto fut = work->getFuture();
  auto chained =
      fut->then([](c10::ivalue::Future& f) { return f.value(); }, c10::ListType::ofTensors());
  work->finish(std::make_exception_ptr(c10d::DistributedError("test op: peer lost")));
  EXPECT_TRUE(fut->hasError());
  EXPECT_EQ(fut->tryRetrieveErrorMessage(), "test op: peer lost");
  EXPECT_THROW(fut->value(), c10d::DistributedError);
  EXPECT_THROW(chained->value(), c10d::DistributedError);  // then() forwards it
}

TEST(C10dWork, AbortAndSourceRankOfOtherWorksAreTypedErrors) {
  auto work = c10::make_intrusive<c10d::Work>("ProcessGroupGloo::allreduce");
  try {
    work->abort();
    FAIL() << "abort of a collective did not throw";
  } catch (const c10::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("Work::abort: ProcessGroupGloo::allreduce"),
              std::string::npos)
        << e.what();
  }
  try {
    work->sourceRank();
    FAIL() << "sourceRank of a collective did not throw";
  } catch (const c10::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Work::sourceRank: expected the Work of a recv"),
              std::string::npos)
        << e.what();
  }
}

TEST(C10dWork, GlooRecvAbortEndsItsWaitAndRecvHasASourceRank) {
  run_c10d_ranks(2, [](c10d::ProcessGroupGloo& pg, int r) {
    if (r == 1) {
      std::vector<at::Tensor> buf{at::zeros({4})};
      auto never = pg.recv(buf, 0, 7);  // rank 0 never sends with tag 7
      EXPECT_EQ(never->sourceRank(), 0);
      std::thread aborter([&] {
        std::this_thread::sleep_for(100ms);
        never->abort();
      });
      const auto t0 = std::chrono::steady_clock::now();
      EXPECT_FALSE(never->wait(5000ms));  // libtorch: false when aborted
      EXPECT_LT(std::chrono::steady_clock::now() - t0, 2000ms);
      aborter.join();
      std::vector<at::Tensor> got{at::zeros({2})};
      auto work = pg.recv(got, 0, 8);
      EXPECT_TRUE(work->wait());
      EXPECT_EQ(work->sourceRank(), 0);
      EXPECT_EQ(got[0][1].item<float>(), 5.0f);
    } else {
      std::vector<at::Tensor> data{at::full({2}, 5.0)};
      pg.send(data, 1, 8)->wait();
    }
    pg.barrier()->wait();
  });
}

}  // namespace
