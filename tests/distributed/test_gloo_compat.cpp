// libtorch spellings of the Gloo process group: c10d::ProcessGroupGloo, its Options, c10d::Work,
// c10d::ReduceOp, c10::intrusive_ptr, via the compat headers.

#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include "support/gloo_test_store.h"

namespace brasa_gloo_test {
namespace {

TEST(GlooCompat, LibtorchSpellings) {
  c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<MemStore>();
  std::vector<std::thread> threads;
  std::vector<float> results(2);
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(10));
      options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
      options->threads = 1;
      auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, r, 2, options);
      EXPECT_EQ(pg->getBackendName(), "gloo");
      std::vector<torch::Tensor> tensors{torch::full({4}, r + 1.0)};
      c10d::AllreduceOptions opts;
      opts.reduceOp = c10d::ReduceOp::AVG;
      c10::intrusive_ptr<c10d::Work> work = pg->allreduce(tensors, opts);
      work->wait();
      results[static_cast<size_t>(r)] = tensors[0][0].item<float>();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(results[0], 1.5f);
  EXPECT_EQ(results[1], 1.5f);
}

TEST(GlooCompat, DefaultDeviceIsLoopback) {
  auto device = c10d::ProcessGroupGloo::createDefaultDevice();
  EXPECT_NE(device, nullptr);
}

}  // namespace
}  // namespace brasa_gloo_test
