// LR scheduler behaviour that the trajectory tests don't reach: argument errors, OneCycleLR's
// momentum cycling and overstepping, several groups, SequentialLR's milestones.
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace {

namespace O = torch::optim;

TEST(LRSchedulers, ArgumentErrors) {
  torch::Tensor x = torch::zeros({2}).requires_grad_();
  O::SGD sgd({x}, O::SGDOptions(0.1));
  EXPECT_THROW(O::StepLR(sgd, 0), torch::ValueError);
  EXPECT_THROW(O::CosineAnnealingLR(sgd, 0), torch::ValueError);
  EXPECT_THROW(O::LinearLR(sgd, 1.5), torch::ValueError);
  EXPECT_THROW(O::OneCycleLR(sgd, 0.1, 10, 1.5), torch::ValueError);
  EXPECT_THROW(O::OneCycleLR(sgd, 0.1, 10, 0.3, "square"), torch::ValueError);
  EXPECT_THROW(O::ReduceLROnPlateau(sgd, O::ReduceLROnPlateau::min, 1.5), torch::ValueError);
  O::Adagrad adagrad({x}, O::AdagradOptions(0.1));
  EXPECT_THROW(O::OneCycleLR(adagrad, 0.1, 10), torch::ValueError);
  EXPECT_NO_THROW(O::OneCycleLR(adagrad, 0.1, 10, 0.3, "cos", false));
  O::SGD other({torch::zeros({1}).requires_grad_()}, O::SGDOptions(0.1));
  auto a = std::make_shared<O::StepLR>(sgd, 2);
  auto b = std::make_shared<O::StepLR>(other, 2);
  EXPECT_THROW(O::SequentialLR(sgd, {a, b}, {3}), torch::ValueError);
  EXPECT_THROW(O::SequentialLR(sgd, {a}, {3}), torch::ValueError);
  EXPECT_THROW(O::ChainedScheduler({a, b}), torch::ValueError);
}

TEST(LRSchedulers, OneCycleCyclesMomentumAndStopsAtTotalSteps) {
  torch::Tensor x = torch::zeros({2}).requires_grad_();
  O::Adam adam({x}, O::AdamOptions(1e-3));
  O::OneCycleLR sched(adam, 0.01, 10, 0.3);
  auto beta1 = [&] {
    return std::get<0>(
        static_cast<const O::AdamOptions&>(adam.param_groups()[0].options()).betas());
  };
  EXPECT_NEAR(sched.get_last_lr()[0], 0.01 / 25, 1e-15);
  EXPECT_NEAR(beta1(), 0.95, 1e-15);
  sched.step();
  sched.step();  // end of the warmup phase (0.3 * 10 - 1 = 2): max lr, base momentum
  EXPECT_NEAR(sched.get_last_lr()[0], 0.01, 1e-12);
  EXPECT_NEAR(beta1(), 0.85, 1e-12);
  for (int i = 0; i < 7; ++i) sched.step();
  EXPECT_NEAR(sched.get_last_lr()[0], 0.01 / 25 / 1e4, 1e-15);
  sched.step();  // step_num == total_steps is still allowed (torch: 0.000495...)
  EXPECT_NEAR(sched.get_last_lr()[0], 0.0004951936798652623, 1e-12);
  EXPECT_THROW(sched.step(), torch::ValueError);
}

TEST(LRSchedulers, EveryGroupIsScheduled) {
  torch::Tensor x = torch::zeros({2}).requires_grad_(), y = torch::zeros({2}).requires_grad_();
  std::vector<O::OptimizerParamGroup> groups = {
      O::OptimizerParamGroup({x}),
      O::OptimizerParamGroup({y}, std::make_unique<O::SGDOptions>(O::SGDOptions(1.0)))};
  O::SGD sgd(groups, O::SGDOptions(0.1));
  O::StepLR sched(sgd, 2, 0.5);
  for (int i = 0; i < 4; ++i) sched.step();
  EXPECT_EQ(sched.get_last_lr(), (std::vector<double>{0.025, 0.25}));
  EXPECT_EQ(sgd.param_groups()[1].options().get_lr(), 0.25);
  EXPECT_EQ(sched.last_epoch(), 4);
}

TEST(LRSchedulers, SequentialSwitchesAtMilestones) {
  torch::Tensor x = torch::zeros({2}).requires_grad_();
  O::SGD sgd({x}, O::SGDOptions(1.0));
  auto warm = std::make_shared<O::LinearLR>(sgd, 0.25, 1.0, 3);
  auto decay = std::make_shared<O::ExponentialLR>(sgd, 0.5);
  O::SequentialLR seq(sgd, {warm, decay}, {3});
  std::vector<double> lrs = {seq.get_last_lr()[0]};
  for (int i = 0; i < 5; ++i) {
    seq.step();
    lrs.push_back(seq.get_last_lr()[0]);
  }
  // torch: [0.25, 0.5, 0.75, 1.0 (milestone: ExponentialLR restarts at the base lr), 0.5, 0.25]
  const std::vector<double> want = {0.25, 0.5, 0.75, 1.0, 0.5, 0.25};
  ASSERT_EQ(lrs.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(lrs[i], want[i], 1e-12) << i;
}

}  // namespace
