// The example npu backend: device naming, copies, its own kernels, the CPU fallback (aliasing,
// out= resizing, warnings once per op, the report, the error mode, views refused) and mixed
// devices refused.
#include <sstream>

#include "support/npu_fixture.h"

namespace brasa::testing {
namespace {

using NpuOps = NpuTest;

TEST_F(NpuOps, TheDeviceIsNamedNpu) {
  EXPECT_EQ(get_privateuse1_backend_name(), "npu");
  EXPECT_TRUE(Device("npu:1").is_privateuseone());
  EXPECT_EQ(Device("npu:1").str(), "npu:1");
  EXPECT_EQ(Device("privateuseone:0").str(), "npu:0");
  Tensor t = ones({2}).to("npu");
  EXPECT_TRUE(t.is_privateuseone());
  EXPECT_EQ(t.device().str(), "npu:0");  // the current npu, like cuda tensors
  std::ostringstream os;
  os << t;
  EXPECT_NE(os.str().find("npuFloatType"), std::string::npos) << os.str();  // libtorch's form
  EXPECT_NO_THROW(rename_privateuse1_backend("npu"));  // the same name again is a no-op
  EXPECT_THROW(rename_privateuse1_backend("other"), ValueError);
  EXPECT_THROW(rename_privateuse1_backend("cuda"), ValueError);
}

TEST_F(NpuOps, CopiesKeepValuesAndLayouts) {
  Tensor a = randn({3, 5});
  EXPECT_TRUE(bitwise_equal(a.to(npu), a));
  EXPECT_TRUE(bitwise_equal(a.t().to(npu), a.t()));                  // non-contiguous source
  EXPECT_TRUE(bitwise_equal(a.to(npu).t().cpu(), a.t()));            // non-contiguous device view
  EXPECT_TRUE(bitwise_equal(a.to(npu).to(kDouble), a.to(kDouble)));  // cast on the device
  EXPECT_DOUBLE_EQ(a.to(npu)[1][2].item<double>(), a[1][2].item<double>());
  Tensor on1 = a.to(Device("npu:1"));
  EXPECT_EQ(on1.device().str(), "npu:1");
  EXPECT_TRUE(bitwise_equal(on1.to(Device("npu:0")), a));  // between two npus
  Tensor d = zeros({3, 5}).to(npu);
  d.select(1, 2).copy_(a.select(1, 2));  // into a strided device view
  Tensor expect = zeros({3, 5});
  expect.select(1, 2).copy_(a.select(1, 2));
  EXPECT_TRUE(bitwise_equal(d, expect));
  EXPECT_TRUE(bitwise_equal(empty({0, 3}).to(npu), empty({0, 3})));
  EXPECT_TRUE(bitwise_equal(scalar_tensor(2.5).to(npu), scalar_tensor(2.5)));
}

TEST_F(NpuOps, ItsOwnKernelsMatchTheCpuWithoutFallback) {
  Tensor a = randn({4, 3}), b = randn({3}), m = randn({3, 6});
  Tensor da = a.to(npu), db = b.to(npu), dm = m.to(npu);
  EXPECT_TRUE(bitwise_equal(da + db, a + b));  // broadcast
  EXPECT_TRUE(bitwise_equal(da * db, a * b));
  EXPECT_TRUE(bitwise_equal(da * 2.5, a * 2.5));
  EXPECT_TRUE(bitwise_equal(relu(da), relu(a)));
  EXPECT_TRUE(bitwise_equal(da.mm(dm), a.mm(m)));
  EXPECT_TRUE(bitwise_equal(da.sum(), a.sum()));
  EXPECT_TRUE(bitwise_equal(da.sum(0, true), a.sum(0, true)));
  Tensor c = a.clone();
  Tensor dc = c.to(npu);
  dc.add_(db);
  c.add_(b);
  EXPECT_TRUE(bitwise_equal(dc, c));
  EXPECT_TRUE(backend::fallback_report().empty())
      << backend::fallback_report().front().op << " fell back";
}

TEST_F(NpuOps, OtherOpsFallBackWithOneWarningPerOp) {
  std::vector<std::string> warnings;
  WarningHandler saved = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  Tensor a = randn({4, 3}), b = randn({4, 3});
  Tensor da = a.to(npu), db = b.to(npu);
  EXPECT_TRUE(bitwise_equal(da - db, a - b));
  EXPECT_TRUE(bitwise_equal(da - db, a - b));
  EXPECT_TRUE(bitwise_equal(da.exp(), a.exp()));
  EXPECT_TRUE(bitwise_equal(softmax(da, 1), softmax(a, 1)));
  EXPECT_TRUE(bitwise_equal(da.argmax(1), a.argmax(1)));
  EXPECT_TRUE(bitwise_equal(arange(5, TensorOptions(kFloat).device(npu)), arange(5.0f)));
  set_warning_handler(saved);
  std::map<std::string, int64_t> calls;
  for (const auto& r : backend::fallback_report()) calls[r.op] = r.calls;
  EXPECT_EQ(calls["sub"], 2);
  EXPECT_GE(calls["exp"], 1);
  EXPECT_GE(calls["arange"], 1);
  int sub_warnings = 0;
  for (const auto& w : warnings) sub_warnings += w.find("'sub'") != std::string::npos;
  EXPECT_EQ(sub_warnings, 1);  // once per op, not per call
  std::ostringstream report;
  backend::print_fallback_report(report);
  EXPECT_NE(report.str().find("sub"), std::string::npos) << report.str();
}

TEST_F(NpuOps, TheFallbackKeepsAliasingAndResizesOutArguments) {
  Tensor x = randn({4, 4});
  Tensor dx = x.to(npu);
  dx.sub_(dx.t());  // self and a transposed view of it: one storage on the CPU too
  x.sub_(x.t());
  EXPECT_TRUE(bitwise_equal(dx, x));
  Tensor a = randn({2, 3}), b = randn({2, 3});
  Tensor out = empty({0}, TensorOptions(kFloat).device(npu));
  sub_out(out, a.to(npu), b.to(npu));
  EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(out.is_privateuseone());
  EXPECT_TRUE(bitwise_equal(out, a - b));
  Tensor row = zeros({3, 4}).to(npu);
  row.select(0, 1).exp_();  // a written view: the rest of the storage keeps its values
  Tensor expect = zeros({3, 4});
  expect.select(0, 1).exp_();
  EXPECT_TRUE(bitwise_equal(row, expect));
  // A half view whose bytes start off the 16-byte grid: the bytes before it in the copied span
  // must keep their values even though fill_ overwrites all of the view.
  Tensor h = randn({2, 3, 4}).to(kHalf);
  Tensor dh = h.to(npu);
  dh[1].fill_(7);
  h[1].fill_(7);
  EXPECT_TRUE(bitwise_equal(dh, h));
}

TEST_F(NpuOps, ErrorModeTurnsFallbacksIntoErrors) {
  backend::set_fallback_mode(backend::FallbackMode::Error);
  Tensor a = ones({2}).to(npu);
  try {
    (void)(a - a);
    ADD_FAILURE() << "expected NotImplementedError";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("BRASA_FALLBACK=error"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("sub"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)(a + a));  // the npu's own kernel
  backend::set_fallback_mode(backend::FallbackMode::Warn);
}

BRASA_DECLARE_OP(test_view_op, "test::npu_view", "test::npu_view(Tensor(a) self) -> Tensor(a)",
                 Tensor(const Tensor&));
BRASA_DEFINE_OP(test_view_op)
Tensor test_view_kernel(const Tensor& self) { return self; }
BRASA_REGISTER_KERNEL(test_view_op, test_view_kernel, CPU)

TEST_F(NpuOps, ViewOpsDoNotFallBack) {
  Tensor a = ones({2}).to(npu);
  try {
    test_view_op().call(a);
    ADD_FAILURE() << "expected NotImplementedError";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("view operator"), std::string::npos) << e.what();
  }
}

TEST_F(NpuOps, TensorsOfTwoDevicesAreRefused) {
  Tensor a = ones({3}).to(npu), c = ones({3});
  for (auto f : {+[](const Tensor&x, const Tensor&y) { return x + y; },     // npu kernel
                 +[](const Tensor&x, const Tensor&y) { return x - y; }}) {  // fallback
    try {
      f(a, c);
      ADD_FAILURE() << "expected ValueError";
    } catch (const ValueError& e) {
      std::string m = e.what();
      EXPECT_NE(m.find("npu:0"), std::string::npos) << m;
      EXPECT_NE(m.find("cpu"), std::string::npos) << m;
    }
  }
  EXPECT_TRUE(bitwise_equal(a + scalar_tensor(2.0f), ones({3}) + 2.0f));  // 0-d CPU is fine
  Tensor other = ones({3}, TensorOptions(kFloat).device(Device("npu:1")));
  EXPECT_EQ(other.device().str(), "npu:1");
  EXPECT_THROW(a - other, ValueError);
}

TEST_F(NpuOps, AutogradTrainsOnTheDevice) {
  Tensor x = randn({8, 5}), w = randn({5, 4}), v = randn({4, 1});
  auto loss_of = [](const Tensor& x, const Tensor& w, const Tensor& v) {
    return (relu(x.mm(w)).mm(v) * 0.5).sum();
  };
  Tensor cw = w.clone().requires_grad_(true), cv = v.clone().requires_grad_(true);
  loss_of(x, cw, cv).backward();
  Tensor dw = w.to(npu).requires_grad_(true), dv = v.to(npu).requires_grad_(true);
  Tensor loss = loss_of(x.to(npu), dw, dv);
  EXPECT_TRUE(loss.is_privateuseone());
  loss.backward();
  ASSERT_TRUE(dw.grad().defined());
  EXPECT_TRUE(dw.grad().is_privateuseone());
  EXPECT_TRUE(bitwise_equal(dw.grad(), cw.grad()));
  EXPECT_TRUE(bitwise_equal(dv.grad(), cv.grad()));
}

TEST_F(NpuOps, ModulesAndOptimizersRunOnTheDevice) {
  // Module::to moves parameters with their device and dispatch key (set_data); the fused
  // optimizer steps are ops, so on the npu they fall back to the CPU kernel and agree bit for bit.
  auto train = [](Device device, bool adam) {
    manual_seed(3);
    nn::Linear model(6, 4);
    model->to(device);
    EXPECT_EQ(model->weight.device().type(), device.type());
    std::unique_ptr<optim::Optimizer> opt;
    if (adam)
      opt = std::make_unique<optim::AdamW>(model->parameters(), optim::AdamWOptions(1e-2));
    else
      opt = std::make_unique<optim::SGD>(model->parameters(), optim::SGDOptions(0.1).momentum(0.9));
    Tensor x = randn({5, 6}), y = randint(0, 4, {5});
    for (int step = 0; step < 4; ++step) {
      opt->zero_grad();
      nn::functional::cross_entropy(model->forward(x.to(device)), y.to(device)).backward();
      opt->step();
    }
    return model->weight.cpu();
  };
  for (bool adam : {false, true}) {
    Tensor cpu = train(Device(kCPU), adam);
    EXPECT_TRUE(bitwise_equal(train(npu, adam), cpu)) << (adam ? "AdamW" : "SGD");
  }
  std::map<std::string, int64_t> calls;
  for (const auto& r : backend::fallback_report()) calls[r.op] = r.calls;
  EXPECT_GT(calls["_fused_adam_"], 0);
  EXPECT_GT(calls["_fused_sgd_"], 0);
}

}  // namespace
}  // namespace brasa::testing
