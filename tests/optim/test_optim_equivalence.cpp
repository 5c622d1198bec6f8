// 100 training steps of a small MLP: brasa's optimizers and schedulers against PyTorch's loss
// and lr trajectories (reference_trajectories.h, from generate_reference.py).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <memory>

#include "optim/reference_trajectories.h"
#include "support/optim_model.h"

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
  const auto& ref = optim_reference::trajectories().at(c.name);
  Params params = optim_test::init_params();
  auto opt = c.make_opt(params);
  auto sched = c.make_sched ? c.make_sched(*opt) : nullptr;
  for (size_t step = 0; step < ref.loss.size(); ++step) {
    opt->zero_grad();
    torch::Tensor loss = optim_test::model_loss(params, static_cast<int64_t>(step), c.loss);
    loss.backward();
    opt->step();
    if (sched) sched->step();
    const std::string at = std::string(c.name) + " step " + std::to_string(step);
    expect_rel_close(loss.item<double>(), ref.loss[step], 1e-4, at + " loss");
    expect_rel_close(opt->param_groups()[0].options().get_lr(), ref.lr[step], 1e-9, at + " lr");
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
  for (size_t i = 0; i < optim_reference::kPlateauMetrics.size(); ++i) {
    min_sched.step(optim_reference::kPlateauMetrics[i]);
    max_sched.step(optim_reference::kPlateauMetrics[i]);
    expect_rel_close(min_sched.get_last_lr()[0], optim_reference::kPlateauMinLrs[i], 1e-12,
                     "min mode epoch " + std::to_string(i));
    expect_rel_close(max_sched.get_last_lr()[0], optim_reference::kPlateauMaxLrs[i], 1e-12,
                     "max mode epoch " + std::to_string(i));
  }
}

}  // namespace
