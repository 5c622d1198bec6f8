// 100 training steps of a small MLP: brasa's optimizers and schedulers against the loss and lr
// trajectories of PyTorch's, which run the same cases (kPythonCases) while the tests run.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <memory>
#include <sstream>

#include "support/optim_model.h"
#include "support/torch_oracle.h"

namespace {

namespace O = torch::optim;
using Params = std::vector<torch::Tensor>;
using MakeOpt = std::function<std::unique_ptr<O::Optimizer>(const Params&)>;
using MakeSched = std::function<std::shared_ptr<O::LRScheduler>(O::Optimizer&)>;

struct Case {
  const char* name;
  MakeOpt make_opt;
  const char* loss = "mse";
  MakeSched make_sched = nullptr;
};

constexpr size_t kSteps = 100;
const std::vector<double> kPlateauMetrics = {1.0,  0.9, 0.95, 0.93, 0.92, 0.91, 0.95,
                                             0.89, 0.9, 0.9,  0.9,  0.9,  0.8,  0.85};

// PyTorch's half of cases() and of ReduceLROnPlateauMatchesPyTorch, in the same order.
const char* const kPythonCases = R"PY(
CASES = {
    "sgd_momentum": (lambda p: O.SGD(p, lr=0.05, momentum=0.9), "mse", None),
    "sgd_nesterov_wd": (lambda p: O.SGD(p, lr=0.05, momentum=0.9, nesterov=True,
                                        weight_decay=1e-2), "mse", None),
    "sgd_dampening_ce": (lambda p: O.SGD(p, lr=0.2, momentum=0.5, dampening=0.3,
                                         weight_decay=1e-3), "ce", None),
    "sgd_groups": (lambda p: O.SGD([{"params": p[:2]},
                                    {"params": p[2:], "lr": 0.01, "momentum": 0.9}], lr=0.05),
                   "mse", None),
    "adam": (lambda p: O.Adam(p, lr=1e-2), "mse", None),
    "adam_amsgrad_wd_ce": (lambda p: O.Adam(p, lr=1e-2, amsgrad=True, weight_decay=1e-2), "ce",
                           None),
    "adamw": (lambda p: O.AdamW(p, lr=1e-2, weight_decay=0.1), "mse", None),
    "adamw_amsgrad": (lambda p: O.AdamW(p, lr=5e-3, betas=(0.8, 0.99), amsgrad=True), "mse",
                      None),
    "rmsprop": (lambda p: O.RMSprop(p, lr=1e-3), "mse", None),
    "rmsprop_centered_momentum": (lambda p: O.RMSprop(p, lr=1e-3, momentum=0.9, centered=True,
                                                      weight_decay=1e-2), "mse", None),
    "adagrad": (lambda p: O.Adagrad(p, lr=0.05, lr_decay=1e-3, weight_decay=1e-3,
                                    initial_accumulator_value=0.1), "mse", None),
    "sgd_steplr": (lambda p: O.SGD(p, lr=0.1, momentum=0.9), "mse",
                   lambda o: S.StepLR(o, step_size=30, gamma=0.5)),
    "sgd_multisteplr": (lambda p: O.SGD(p, lr=0.1), "mse",
                        lambda o: S.MultiStepLR(o, milestones=[20, 50, 50], gamma=0.5)),
    "adam_exponentiallr": (lambda p: O.Adam(p, lr=1e-2), "mse",
                           lambda o: S.ExponentialLR(o, gamma=0.98)),
    "sgd_cosine": (lambda p: O.SGD(p, lr=0.1), "mse",
                   lambda o: S.CosineAnnealingLR(o, T_max=40, eta_min=1e-3)),
    "sgd_onecycle": (lambda p: O.SGD(p, lr=0.1, momentum=0.9), "mse",
                     lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=100)),
    "adam_onecycle_linear3": (lambda p: O.Adam(p, lr=1e-2), "mse",
                              lambda o: S.OneCycleLR(o, max_lr=1e-2, total_steps=100,
                                                     anneal_strategy="linear",
                                                     three_phase=True)),
    "sgd_warmup_cosine": (lambda p: O.SGD(p, lr=0.1), "mse",
                          lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1,
                                                                  total_iters=10),
                                                       S.CosineAnnealingLR(o, T_max=90)],
                                                   milestones=[10])),
    "sgd_chained": (lambda p: O.SGD(p, lr=0.1), "mse",
                    lambda o: S.ChainedScheduler([S.LinearLR(o, start_factor=0.5, total_iters=4),
                                                  S.ExponentialLR(o, gamma=0.97)])),
}
for name, (make_opt, kind, make_sched) in CASES.items():
    params = init_params()
    opt = make_opt(params)
    sched = make_sched(opt) if make_sched else None
    losses, lrs = [], []
    for step in range(STEPS):
        opt.zero_grad()
        loss = loss_fn(params, step, kind)
        loss.backward()
        opt.step()
        if sched:
            sched.step()
        losses.append(loss.item())
        lrs.append(opt.param_groups[0]["lr"])
    out(name + ":loss", losses)
    out(name + ":lr", lrs)

def plateau_lrs(mode, **kw):
    opt = O.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = S.ReduceLROnPlateau(opt, mode=mode, **kw)
    lrs = []
    for m in METRICS:
        sched.step(m)
        lrs.append(opt.param_groups[0]["lr"])
    return lrs

out("plateau:min", plateau_lrs("min", factor=0.5, patience=2, threshold=0.01, cooldown=1,
                               min_lr=0.2))
out("plateau:max", plateau_lrs("max", factor=0.1, patience=1, threshold=0.05,
                               threshold_mode="abs"))
)PY";

// PyTorch's trajectories of every case, from one Python run shared by the cases.
const std::map<std::string, std::vector<double>>& pytorch() {
  std::ostringstream body;
  body.precision(17);
  body << optim_test::kPythonModel << "STEPS = " << kSteps << "\nMETRICS = [";
  for (double m : kPlateauMetrics) body << m << ", ";
  body << "]\n" << kPythonCases;
  return brasa::testing_oracle::run_python_shared(body.str());
}

const std::vector<double>& want(const std::string& key) {
  static const std::vector<double> none;
  auto it = pytorch().find(key);
  if (it == pytorch().end()) ADD_FAILURE() << "PyTorch has no " << key;
  return it == pytorch().end() ? none : it->second;
}

template <typename Opt, typename Options>
MakeOpt make(Options options) {
  return [options](const Params& p) { return std::make_unique<Opt>(p, options); };
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"sgd_momentum", make<O::SGD>(O::SGDOptions(0.05).momentum(0.9))},
      {"sgd_nesterov_wd",
       make<O::SGD>(O::SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(1e-2))},
      {"sgd_dampening_ce",
       make<O::SGD>(O::SGDOptions(0.2).momentum(0.5).dampening(0.3).weight_decay(1e-3)), "ce"},
      {"sgd_groups",
       [](const Params& p) {
         std::vector<O::OptimizerParamGroup> groups = {
             O::OptimizerParamGroup({p[0], p[1]}),
             O::OptimizerParamGroup({p[2], p[3]},
                                    std::make_unique<O::SGDOptions>(
                                        O::SGDOptions(0.01).momentum(0.9)))};
         return std::make_unique<O::SGD>(groups, O::SGDOptions(0.05));
       }},
      {"adam", make<O::Adam>(O::AdamOptions(1e-2))},
      {"adam_amsgrad_wd_ce", make<O::Adam>(O::AdamOptions(1e-2).amsgrad(true).weight_decay(1e-2)),
       "ce"},
      {"adamw", make<O::AdamW>(O::AdamWOptions(1e-2).weight_decay(0.1))},
      {"adamw_amsgrad",
       make<O::AdamW>(O::AdamWOptions(5e-3).betas(std::make_tuple(0.8, 0.99)).amsgrad(true))},
      {"rmsprop", make<O::RMSprop>(O::RMSpropOptions(1e-3))},
      {"rmsprop_centered_momentum",
       make<O::RMSprop>(O::RMSpropOptions(1e-3).momentum(0.9).centered(true).weight_decay(1e-2))},
      {"adagrad", make<O::Adagrad>(O::AdagradOptions(0.05).lr_decay(1e-3).weight_decay(1e-3)
                                       .initial_accumulator_value(0.1))},
      {"sgd_steplr", make<O::SGD>(O::SGDOptions(0.1).momentum(0.9)), "mse",
       [](O::Optimizer& o) { return std::make_shared<O::StepLR>(o, 30, 0.5); }},
      {"sgd_multisteplr", make<O::SGD>(O::SGDOptions(0.1)), "mse",
       [](O::Optimizer& o) {
         return std::make_shared<O::MultiStepLR>(o, std::vector<int64_t>{20, 50, 50}, 0.5);
       }},
      {"adam_exponentiallr", make<O::Adam>(O::AdamOptions(1e-2)), "mse",
       [](O::Optimizer& o) { return std::make_shared<O::ExponentialLR>(o, 0.98); }},
      {"sgd_cosine", make<O::SGD>(O::SGDOptions(0.1)), "mse",
       [](O::Optimizer& o) { return std::make_shared<O::CosineAnnealingLR>(o, 40, 1e-3); }},
      {"sgd_onecycle", make<O::SGD>(O::SGDOptions(0.1).momentum(0.9)), "mse",
       [](O::Optimizer& o) { return std::make_shared<O::OneCycleLR>(o, 0.1, 100); }},
      {"adam_onecycle_linear3", make<O::Adam>(O::AdamOptions(1e-2)), "mse",
       [](O::Optimizer& o) {
         return std::make_shared<O::OneCycleLR>(o, 1e-2, 100, 0.3, "linear", true, 0.85, 0.95,
                                                25., 1e4, true);
       }},
      {"sgd_warmup_cosine", make<O::SGD>(O::SGDOptions(0.1)), "mse",
       [](O::Optimizer& o) {
         auto warmup = std::make_shared<O::LinearLR>(o, 0.1, 1.0, 10);
         auto cosine = std::make_shared<O::CosineAnnealingLR>(o, 90);
         return std::make_shared<O::SequentialLR>(
             o, std::vector<std::shared_ptr<O::LRScheduler>>{warmup, cosine},
             std::vector<int64_t>{10});
       }},
      {"sgd_chained", make<O::SGD>(O::SGDOptions(0.1)), "mse",
       [](O::Optimizer& o) {
         auto warmup = std::make_shared<O::LinearLR>(o, 0.5, 1.0, 4);
         auto decay = std::make_shared<O::ExponentialLR>(o, 0.97);
         return std::make_shared<O::ChainedScheduler>(
             std::vector<std::shared_ptr<O::LRScheduler>>{warmup, decay});
       }},
  };
  return c;
}

void expect_rel_close(double got, double want, double rel, const std::string& what) {
  EXPECT_LE(std::abs(got - want), rel * std::max(std::abs(want), 1e-12))
      << what << ": got " << got << ", PyTorch " << want;
}

class OptimEquivalence : public ::testing::TestWithParam<size_t> {};

TEST_P(OptimEquivalence, LossAndLrTrajectoryMatchPyTorch) {
  const Case& c = cases()[GetParam()];
  const std::vector<double>& want_loss = want(std::string(c.name) + ":loss");
  const std::vector<double>& want_lr = want(std::string(c.name) + ":lr");
  ASSERT_EQ(want_loss.size(), kSteps);
  ASSERT_EQ(want_lr.size(), kSteps);
  Params params = optim_test::init_params();
  auto opt = c.make_opt(params);
  auto sched = c.make_sched ? c.make_sched(*opt) : nullptr;
  for (size_t step = 0; step < kSteps; ++step) {
    opt->zero_grad();
    torch::Tensor loss = optim_test::model_loss(params, static_cast<int64_t>(step), c.loss);
    loss.backward();
    opt->step();
    if (sched) sched->step();
    const std::string at = std::string(c.name) + " step " + std::to_string(step);
    expect_rel_close(loss.item<double>(), want_loss[step], 1e-4, at + " loss");
    expect_rel_close(opt->param_groups()[0].options().get_lr(), want_lr[step], 1e-9, at + " lr");
    if (sched) {
      EXPECT_EQ(sched->get_last_lr()[0], opt->param_groups()[0].options().get_lr());
    }
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, OptimEquivalence, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return std::string(cases()[info.param].name);
                         });

TEST(OptimEquivalence, ReduceLROnPlateauMatchesPyTorch) {
  torch::Tensor p = torch::zeros({1}).requires_grad_();
  O::SGD min_opt({p}, O::SGDOptions(1.0));
  O::ReduceLROnPlateau min_sched(min_opt, O::ReduceLROnPlateau::min, 0.5, 2, 0.01,
                                 O::ReduceLROnPlateau::rel, 1, {0.2});
  O::SGD max_opt({p}, O::SGDOptions(1.0));
  O::ReduceLROnPlateau max_sched(max_opt, O::ReduceLROnPlateau::max, 0.1, 1, 0.05,
                                 O::ReduceLROnPlateau::abs);
  const std::vector<double>& want_min = want("plateau:min");
  const std::vector<double>& want_max = want("plateau:max");
  ASSERT_EQ(want_min.size(), kPlateauMetrics.size());
  ASSERT_EQ(want_max.size(), kPlateauMetrics.size());
  for (size_t i = 0; i < kPlateauMetrics.size(); ++i) {
    min_sched.step(kPlateauMetrics[i]);
    max_sched.step(kPlateauMetrics[i]);
    expect_rel_close(min_sched.get_last_lr()[0], want_min[i], 1e-12,
                     "min mode epoch " + std::to_string(i));
    expect_rel_close(max_sched.get_last_lr()[0], want_max[i], 1e-12,
                     "max mode epoch " + std::to_string(i));
  }
}

}  // namespace
