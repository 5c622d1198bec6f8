// What libtorch's c10d headers bring: <ATen/ATen.h> (at::ones, TORCH_CHECK, c10::optional),
// c10/macros, LOG(severity); also at::OptionalDeviceGuard and the profiler's record scopes.
// Deliberately includes no <torch/torch.h> or <ATen/ATen.h> itself.

#include <ATen/DeviceGuard.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/profiler.h>

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace {

TEST(C10dHeaders, BringATenAndTheMacros) {
  at::Tensor t = at::ones({2, 2});
  c10::optional<int64_t> n = t.numel();
  TORCH_CHECK(*n == 4, "expected 4 elements");
  C10_UNUSED int unused = 0;
  EXPECT_TRUE(C10_LIKELY(n.has_value()));
  EXPECT_FALSE(C10_UNLIKELY(!n.has_value()));
  EXPECT_EQ(std::string(C10_STRINGIZE(abc)), "abc");
  EXPECT_THROW(TORCH_CHECK(false, "c10d: no"), c10::Error);
}

TEST(C10dHeaders, LogWritesOneLinePerStatement) {
  ::testing::internal::CaptureStderr();
  LOG(INFO) << "rank " << 3 << " ready";
  LOG(WARNING) << "slow";
  LOG_IF(ERROR, false) << "not shown";
  VLOG(1) << "not shown either";
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("[I "), std::string::npos) << out;
  EXPECT_NE(out.find("] rank 3 ready\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[W "), std::string::npos) << out;
  EXPECT_EQ(out.find("not shown"), std::string::npos) << out;
}

TEST(C10dHeaders, OptionalDeviceGuard) {
  at::OptionalDeviceGuard none;
  EXPECT_FALSE(none.original_device().has_value());
  EXPECT_FALSE(none.current_device().has_value());
  at::OptionalDeviceGuard guard(at::Device(at::kCPU));
  EXPECT_EQ(guard.current_device(), at::Device(at::kCPU));
  guard.reset();
  EXPECT_FALSE(guard.current_device().has_value());
  at::OptionalDeviceGuard from_tensor(at::device_of(at::ones({1})));
  EXPECT_EQ(from_tensor.current_device(), at::Device(at::kCPU));
}

int evaluated = 0;
int count_evaluation() { return ++evaluated; }

TEST(C10dHeaders, RecordScopesCompileAndCostNothing) {
  {
    RECORD_FUNCTION("my_op", std::vector<c10::IValue>({count_evaluation()}));
    RECORD_USER_SCOPE("phase");
    at::RecordFunction guard(at::RecordScope::USER_SCOPE);
    EXPECT_FALSE(guard.isActive());
  }
  EXPECT_EQ(evaluated, 0);  // arguments are not evaluated while nothing records
  EXPECT_FALSE(torch::autograd::profiler::profilerEnabled());
}

}  // namespace
