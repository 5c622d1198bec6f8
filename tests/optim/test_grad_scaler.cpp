// brasa::amp::GradScaler against PyTorch 1.13's Python GradScaler on the same sequence of steps.
// PyTorch's class refuses to run without CUDA and 1.13 has no CPU kernels for its two helper ops,
// so the oracle runs the class's own code with its CUDA asserts compiled out and the helpers'
// documented semantics registered as CPU kernels; the scaling logic under test is PyTorch's.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "brasa/brasa.h"
#include "brasa/optim/grad_scaler.h"
#include "support/torch_oracle.h"

namespace brasa {
namespace {

const char* kOracle = R"PY(
import torch.cuda.amp.grad_scaler as gsmod
ns = {'__name__': 'torch.cuda.amp.grad_scaler_cpu', '__package__': 'torch.cuda.amp'}
exec(compile(open(gsmod.__file__).read(), gsmod.__file__, 'exec', optimize=1), ns)
ns['amp_definitely_not_available'] = lambda: False
lib = torch.library.Library("aten", "IMPL", "CPU")
def unscale(grads, found_inf, inv_scale):
    for g in grads:
        if not bool(torch.isfinite(g).all()): found_inf.fill_(1.0)
        g.mul_(inv_scale)
lib.impl("_amp_foreach_non_finite_check_and_unscale_", unscale)
def update(scale, tracker, found_inf, gf, bf, gi):
    if found_inf.item():
        scale.mul_(bf); tracker.fill_(0)
    else:
        s = int(tracker.item()) + 1
        if s == gi:
            grown = scale * gf
            if bool(torch.isfinite(grown).all()): scale.copy_(grown)
            tracker.fill_(0)
        else:
            tracker.fill_(s)
    return scale
lib.impl("_amp_update_scale_", update)
sc = ns['GradScaler'](init_scale=8.0, growth_factor=2.0, backoff_factor=0.5, growth_interval=3)
w = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float32, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
x = torch.tensor([0.3, 0.2, -0.1], dtype=torch.float32)
for step in range(12):
    opt.zero_grad()
    sc.scale((w * x).sum()).backward()
    if step in (2, 7, 8):
        with torch.no_grad(): w.grad[1] = math.inf if step != 8 else math.nan
    sc.step(opt)
    sc.update()
    print('scale%d' % step, sc.get_scale())
    print('tracker%d' % step, sc._get_growth_tracker())
    print('w%d' % step, *w.tolist())
sd = sc.state_dict()
print('state', sd['scale'], sd['growth_factor'], sd['backoff_factor'], sd['growth_interval'], sd['_growth_tracker'])
)PY";

TEST(GradScaler, ScheduleMatchesPyTorch) {
  const auto& ref = testing_oracle::run_python_shared(kOracle);
  amp::GradScaler sc(amp::GradScalerOptions()
                         .init_scale(8.0)
                         .growth_factor(2.0)
                         .backoff_factor(0.5)
                         .growth_interval(3));
  Tensor w = tensor({1.0f, -2.0f, 0.5f}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(0.1));
  Tensor x = tensor({0.3f, 0.2f, -0.1f});
  for (int step = 0; step < 12; ++step) {
    SCOPED_TRACE(step);
    opt.zero_grad();
    sc.scale((w * x).sum()).backward();
    if (step == 2 || step == 7 || step == 8) {
      NoGradGuard g;
      w.grad()[1].fill_(step == 8 ? std::numeric_limits<double>::quiet_NaN()
                                  : std::numeric_limits<double>::infinity());
    }
    const bool stepped = sc.step(opt);
    EXPECT_EQ(stepped, step != 2 && step != 7 && step != 8);
    sc.update();
    const std::string s = std::to_string(step);
    EXPECT_EQ(sc.get_scale(), ref.at("scale" + s).at(0));
    EXPECT_EQ(sc.growth_tracker(), static_cast<int64_t>(ref.at("tracker" + s).at(0)));
    testing_oracle::expect_close("w" + s, w, ref, 1e-7);
  }
  GenericDict sd = sc.state_dict();
  const auto& st = ref.at("state");
  EXPECT_EQ(sd.at("scale").toDouble(), st[0]);
  EXPECT_EQ(sd.at("growth_factor").toDouble(), st[1]);
  EXPECT_EQ(sd.at("backoff_factor").toDouble(), st[2]);
  EXPECT_EQ(sd.at("growth_interval").toInt(), static_cast<int64_t>(st[3]));
  EXPECT_EQ(sd.at("_growth_tracker").toInt(), static_cast<int64_t>(st[4]));
}

TEST(GradScaler, StateDictRoundTrip) {
  amp::GradScaler a(amp::GradScalerOptions().init_scale(4.0).growth_interval(5));
  Tensor w = tensor({1.0f}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(0.1));
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    a.scale(w.sum()).backward();
    a.step(opt);
    a.update();
  }
  amp::GradScaler b;
  b.load_state_dict(a.state_dict());
  EXPECT_EQ(b.get_scale(), 4.0);
  EXPECT_EQ(b.growth_tracker(), 3);
  EXPECT_EQ(b.get_growth_interval(), 5);
  EXPECT_THROW(b.load_state_dict(GenericDict()), RuntimeError);
  amp::GradScaler off(amp::GradScalerOptions().enabled(false));
  EXPECT_TRUE(off.state_dict().empty());
  EXPECT_EQ(off.get_scale(), 1.0);
  EXPECT_TRUE(off.scale(w).is_same(w));
}

TEST(GradScaler, Float16LossScalesToFloat32LikePyTorch) {
  amp::GradScaler sc;
  Tensor loss = tensor({3.0f}).to(kHalf).sum();
  Tensor scaled = sc.scale(loss);
  EXPECT_EQ(scaled.scalar_type(), kFloat);
  EXPECT_EQ(scaled.item<double>(), 3.0 * 65536.0);
}

TEST(GradScaler, BadUse) {
  EXPECT_THROW(amp::GradScaler(amp::GradScalerOptions().growth_factor(1.0)), ValueError);
  EXPECT_THROW(amp::GradScaler(amp::GradScalerOptions().backoff_factor(1.5)), ValueError);
  EXPECT_THROW(amp::GradScaler(amp::GradScalerOptions().growth_interval(0)), ValueError);
  amp::GradScaler sc;
  Tensor w = tensor({1.0f}).requires_grad_();
  optim::SGD opt({w}, optim::SGDOptions(0.1));
  EXPECT_THROW(sc.update(), RuntimeError);  // nothing unscaled yet
  sc.scale(w.sum()).backward();
  sc.unscale_(opt);
  EXPECT_THROW(sc.unscale_(opt), RuntimeError);
  sc.step(opt);
  EXPECT_THROW(sc.step(opt), RuntimeError);
  sc.update();
  Tensor h = tensor({1.0f}).to(kHalf).requires_grad_();
  optim::SGD half_opt({h}, optim::SGDOptions(0.1));
  sc.scale(h.sum()).backward();
  try {
    sc.unscale_(half_opt);
    FAIL() << "unscale_ of Float16 gradients did not throw";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Float16"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace brasa
