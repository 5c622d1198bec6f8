// What libtorch 1.13's own C++ API tests (test/cpp/api: support.h, optim.cpp, enum.cpp,
// dataloader.cpp, torch_include.cpp, parallel_benchmark.cpp, nn_utils.cpp, module.cpp, tensor.cpp)
// spell and brasa lacked, each as those tests use it. Expected values are libtorch 1.13's
// documented behaviour.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

// Note [Assignment to a temporary]: x[i] = y copies into the row, x[i][j] = 5 fills the element.
TEST(LibtorchApiSuite, AssigningToAnIndexedTemporaryWritesIntoTheTensor) {
  auto x = torch::zeros({3, 2});
  x[0] = torch::ones({2});
  x[1][1] = 5;
  x[2] = torch::tensor({7.0f, 8.0f}).unsqueeze(0).squeeze(0);  // an rvalue source
  EXPECT_TRUE(torch::equal(x, torch::tensor({{1.0f, 1.0f}, {0.0f, 5.0f}, {7.0f, 8.0f}})));
  // Broadcast like copy_: one value into a whole row.
  x[0] = torch::tensor(3.0f);
  EXPECT_TRUE(torch::equal(x[0], torch::full({2}, 3.0f)));
  // An integer label into a Long tensor (optim.cpp's XOR data).
  auto labels = torch::empty({2}, torch::kInt64);
  labels[0] = int64_t(1) ^ int64_t(0);
  labels[1] = int64_t(1) ^ int64_t(1);
  EXPECT_EQ(labels[0].item<int64_t>(), 1);
  EXPECT_EQ(labels[1].item<int64_t>(), 0);
}

TEST(LibtorchApiSuite, AssigningToANamedTensorRebindsIt) {
  auto x = torch::zeros({2});
  auto alias = x;
  alias = torch::ones({3});  // rebinds alias; x is untouched
  EXPECT_TRUE(torch::equal(x, torch::zeros({2})));
  EXPECT_EQ(alias.numel(), 3);
  torch::Tensor moved = torch::ones({1});
  moved = std::move(alias);
  EXPECT_EQ(moved.numel(), 3);
}

TEST(LibtorchApiSuite, AssigningAMismatchedShapeToATemporaryThrows) {
  auto x = torch::zeros({3, 2});
  EXPECT_THROW(x[0] = torch::ones({3}), c10::Error);
}

TEST(LibtorchApiSuite, GetDeviceLayoutAndDeviceType) {
  auto x = torch::ones({2});
  EXPECT_EQ(x.get_device(), -1);
  EXPECT_EQ(x.layout(), torch::kStrided);
  EXPECT_EQ(torch::TensorOptions().layout(), torch::kStrided);
  torch::Device::Type type = torch::Device::Type::CPU;
  EXPECT_EQ(torch::Device(type), torch::Device(torch::kCPU));
}

TEST(LibtorchApiSuite, ArrayRefAtChecksTheIndex) {
  auto x = torch::ones({4, 5});
  EXPECT_EQ(x.sizes().at(1), 5);
  try {
    (void)x.sizes().at(2);
    FAIL() << "expected an IndexError";
  } catch (const torch::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("index 2 is out of range for an ArrayRef of 2"),
              std::string::npos)
        << e.what();
  }
}

// optim.cpp's custom optimizer: its options use TORCH_ARG, and it defines only step().
struct ApiSuiteOptions : public torch::optim::OptimizerCloneableOptions<ApiSuiteOptions> {
  ApiSuiteOptions(double lr = 1.0) : lr_(lr) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(double, lr) = 1.0;
};

struct ApiSuiteOptimizer : torch::optim::Optimizer {
  explicit ApiSuiteOptimizer(std::vector<torch::Tensor> params, ApiSuiteOptions defaults = {})
      : Optimizer({torch::optim::OptimizerParamGroup(std::move(params))},
                  std::make_unique<ApiSuiteOptions>(defaults)) {}
  torch::Tensor step(LossClosure = nullptr) override { return {}; }
};

TEST(LibtorchApiSuite, AnOptimizerWithOnlyAStepAndTorchArgOptions) {
  ApiSuiteOptions options(0.5);
  EXPECT_EQ(options.lr(), 0.5);
  EXPECT_EQ(options.lr(0.25).lr(), 0.25);
  std::vector<torch::Tensor> params = {torch::ones({2}, torch::requires_grad())};
  ApiSuiteOptimizer optimizer(params);
  EXPECT_EQ(optimizer.param_groups().size(), 1u);
  optimizer.step();
  optimizer.zero_grad();
  // Its state cannot be restored: it has no way to make one.
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(0.1).momentum(0.9));
  (params[0] * 2).sum().backward();
  sgd.step();
  auto dict = sgd.state_dict();
  EXPECT_THROW(optimizer.load_state_dict(dict), torch::NotImplementedError);
}

TEST(LibtorchApiSuite, MakeUniqueGutsAndVariant) {
  auto p = torch::make_unique<std::vector<int>>(3, 7);
  EXPECT_EQ(p->size(), 3u);
  EXPECT_EQ(c10::guts::to_string(42), "42");
  struct Base {
    virtual ~Base() = default;
    virtual int f() const { return 1; }
  };
  struct Child : Base {
    int f() const override { return 2; }
  };
  std::unique_ptr<Base> b = c10::guts::make_unique_base<Base, Child>();
  EXPECT_EQ(b->f(), 2);
  c10::variant<torch::enumtype::kNone, torch::enumtype::kMean, torch::enumtype::kSum> r =
      torch::kSum;
  EXPECT_TRUE(c10::get_if<torch::enumtype::kSum>(&r) != nullptr);
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kSum>(r));
}

TEST(LibtorchApiSuite, EnumNames) {
  EXPECT_EQ(torch::enumtype::get_enum_name(torch::nn::functional::MSELossFuncOptions().reduction()),
            "kMean");
  torch::nn::init::NonlinearityType relu = torch::kReLU;
  EXPECT_EQ(torch::enumtype::get_enum_name(relu), "kReLU");
  torch::nn::functional::PadFuncOptions::mode_t mode = torch::kReflect;
  EXPECT_EQ(torch::enumtype::get_enum_name(mode), "kReflect");
  EXPECT_EQ(torch::enumtype::reduction_get_enum(torch::nn::reduction_t(torch::kSum)),
            torch::Reduction::Sum);
}

TEST(LibtorchApiSuite, InteropThreadsAndLaunch) {
  torch::init_num_threads();
  EXPECT_GE(torch::get_num_interop_threads(), 1);
  EXPECT_THROW(torch::set_num_interop_threads(0), torch::ValueError);
  std::atomic<int> done{0};
  for (int i = 0; i < 8; ++i) at::launch([&done] { done.fetch_add(1); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (done.load() < 8 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(done.load(), 8);
  // The pool has started: its size is fixed now, as in libtorch.
  EXPECT_THROW(torch::set_num_interop_threads(2), torch::RuntimeError);
  // A task that throws is reported, not fatal; the pool keeps running tasks.
  at::launch([] { throw std::runtime_error("task failed"); });
  std::atomic<bool> after{false};
  at::launch([&after] { after = true; });
  const auto deadline2 = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!after.load() && std::chrono::steady_clock::now() < deadline2)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(after.load());
}

// support.h's WarningCapture: derives from WarningHandler inside namespace torch.
}  // namespace

namespace torch::api_suite_test {
struct WarningCapture : public WarningHandler {
  WarningCapture() : prev_(Warning::get_warning_handler()) { Warning::set_warning_handler(this); }
  ~WarningCapture() override { Warning::set_warning_handler(prev_); }
  void process(const SourceLocation&, const std::string& msg, const bool) override {
    messages.push_back(msg);
  }
  WarningHandler* prev_;
  std::vector<std::string> messages;
};
}  // namespace torch::api_suite_test

namespace {
TEST(LibtorchApiSuite, WarningHandlerSpelledInsideNamespaceTorch) {
  torch::api_suite_test::WarningCapture capture;
  TORCH_WARN("captured ", 1);
  ASSERT_EQ(capture.messages.size(), 1u);
  EXPECT_EQ(capture.messages[0], "captured 1");
}
}  // namespace
