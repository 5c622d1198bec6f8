// Optimizer base behaviour: param groups, zero_grad, closures, state keyed per parameter, option
// validation, and the state-dict round trip and mismatch errors.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "support/optim_model.h"

namespace {

namespace O = torch::optim;

void train(O::Optimizer& opt, const std::vector<torch::Tensor>& p, int64_t from, int64_t to) {
  for (int64_t s = from; s < to; ++s) {
    opt.zero_grad();
    optim_test::model_loss(p, s, "mse").backward();
    opt.step();
  }
}

std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& p) {
  std::vector<torch::Tensor> out;
  for (const auto& t : p) out.push_back(t.detach().clone().requires_grad_());
  return out;
}

template <typename Opt, typename Options>
void check_round_trip(Options options) {
  auto a = optim_test::init_params();
  Opt opt_a(a, options);
  train(opt_a, a, 0, 5);
  O::OptimizerStateDict saved = opt_a.state_dict();
  auto b = copies(a);
  Opt opt_b(b, options);
  opt_b.load_state_dict(saved);
  train(opt_a, a, 5, 10);
  train(opt_b, b, 5, 10);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << "param " << i;
  // The saved state is a deep copy: later steps don't change it.
  EXPECT_FALSE(saved.state.empty());
  EXPECT_EQ(saved.param_groups.size(), 1u);
  EXPECT_EQ(saved.param_groups[0].params, (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(OptimState, RoundTripContinuesIdentically) {
  check_round_trip<O::SGD>(O::SGDOptions(0.05).momentum(0.9));
  check_round_trip<O::Adam>(O::AdamOptions(1e-2).amsgrad(true));
  check_round_trip<O::AdamW>(O::AdamWOptions(1e-2));
  check_round_trip<O::RMSprop>(O::RMSpropOptions(1e-3).momentum(0.9).centered(true));
  check_round_trip<O::Adagrad>(O::AdagradOptions(0.05).lr_decay(1e-3));
}

TEST(OptimState, StateDictHasPyTorchKeysAndOptions) {
  auto p = optim_test::init_params();
  O::Adam opt(p, O::AdamOptions(2e-3).betas(std::make_tuple(0.8, 0.95)).amsgrad(true));
  train(opt, p, 0, 3);
  O::OptimizerStateDict d = opt.state_dict();
  ASSERT_EQ(d.state.size(), 4u);
  const auto& s0 = d.state.at(0);
  EXPECT_EQ(s0.scalars.at("step"), 3);
  EXPECT_EQ(s0.tensors.at("exp_avg").sizes(), p[0].sizes());
  EXPECT_TRUE(s0.tensors.count("exp_avg_sq") && s0.tensors.count("max_exp_avg_sq"));
  EXPECT_EQ(d.param_groups[0].options.scalars.at("lr"), 2e-3);
  EXPECT_EQ(d.param_groups[0].options.scalars.at("beta1"), 0.8);
  // Loading restores the options too.
  auto q = copies(p);
  O::Adam other(q, O::AdamOptions(1.0));
  other.load_state_dict(d);
  EXPECT_TRUE(static_cast<const O::AdamOptions&>(other.param_groups()[0].options()) ==
              static_cast<const O::AdamOptions&>(opt.param_groups()[0].options()));
  auto& st = static_cast<O::AdamParamState&>(*other.state().at(O::param_key(q[2])));
  EXPECT_EQ(st.step(), 3);
  EXPECT_TRUE(torch::equal(st.exp_avg(), d.state.at(2).tensors.at("exp_avg")));
}

TEST(OptimState, LoadMismatchThrowsNamingIndexAndShapes) {
  auto p = optim_test::init_params();
  O::Adam opt(p, O::AdamOptions(1e-2));
  train(opt, p, 0, 1);
  O::OptimizerStateDict d = opt.state_dict();

  std::vector<torch::Tensor> other = {
      torch::zeros({16, 8}).requires_grad_(), torch::zeros({16}).requires_grad_(),
      torch::zeros({4, 15}).requires_grad_(), torch::zeros({4}).requires_grad_()};
  O::Adam wrong_shape(other, O::AdamOptions(1e-2));
  try {
    wrong_shape.load_state_dict(d);
    FAIL() << "expected ValueError";
  } catch (const torch::ValueError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("parameter 2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[4, 16]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[4, 15]"), std::string::npos) << msg;
  }
  EXPECT_TRUE(wrong_shape.state().empty());  // a failed load changes nothing

  O::Adam fewer({other[0], other[1]}, O::AdamOptions(1e-2));
  EXPECT_THROW(fewer.load_state_dict(d), torch::ValueError);
  std::vector<O::OptimizerParamGroup> groups = {O::OptimizerParamGroup({other[0], other[1]}),
                                                O::OptimizerParamGroup({other[2], other[3]})};
  O::Adam two_groups(groups, O::AdamOptions(1e-2));
  EXPECT_THROW(two_groups.load_state_dict(d), torch::ValueError);
}

TEST(OptimState, ZeroGradAndParamGroups) {
  auto p = optim_test::init_params();
  O::SGD opt({p[0], p[1]}, O::SGDOptions(0.1));
  opt.add_param_group(O::OptimizerParamGroup(
      {p[2], p[3]}, std::make_unique<O::SGDOptions>(O::SGDOptions(0.01).momentum(0.5))));
  ASSERT_EQ(opt.param_groups().size(), 2u);
  EXPECT_EQ(opt.size(), 4u);
  EXPECT_EQ(opt.param_groups()[1].options().get_lr(), 0.01);
  EXPECT_THROW(opt.add_param_group(O::OptimizerParamGroup({p[0]})), torch::ValueError);

  optim_test::model_loss(p, 0, "mse").backward();
  opt.zero_grad();  // libtorch 1.13's zero_grad() zeroes in place
  EXPECT_TRUE(p[0].grad().defined());
  EXPECT_EQ(p[0].grad().abs().sum().item<double>(), 0.0);
  opt.zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(p[0].grad().defined());

  // step(closure) returns the closure's loss and updates only parameters with gradients.
  torch::Tensor before = p[3].detach().clone();
  torch::Tensor loss = opt.step([&] {
    torch::Tensor l = (p[0] * p[0]).sum();
    l.backward();
    return l;
  });
  EXPECT_NEAR(loss.item<double>(), (p[0] * p[0]).sum().item<double>() / 1.0, 10.0);
  EXPECT_TRUE(torch::equal(p[3], before));
  EXPECT_FALSE(p[0].grad().grad_fn());
  // Momentum state is keyed per parameter; SGD without momentum keeps none.
  EXPECT_TRUE(opt.state().empty());
  optim_test::model_loss(p, 0, "mse").backward();
  opt.step();
  EXPECT_EQ(opt.state().size(), 2u);
  EXPECT_TRUE(opt.state().count(O::param_key(p[2])));
}

TEST(OptimState, InvalidOptionsThrow) {
  torch::Tensor x = torch::zeros({2}).requires_grad_();
  EXPECT_THROW(O::SGD({x}, O::SGDOptions(-1)), torch::ValueError);
  EXPECT_THROW(O::SGD({x}, O::SGDOptions(0.1).nesterov(true)), torch::ValueError);
  EXPECT_THROW(O::Adam({x}, O::AdamOptions().betas(std::make_tuple(1.0, 0.9))), torch::ValueError);
  EXPECT_THROW(O::AdamW({x}, O::AdamWOptions().eps(-1)), torch::ValueError);
  EXPECT_THROW(O::RMSprop({x}, O::RMSpropOptions().alpha(-0.5)), torch::ValueError);
  EXPECT_THROW(O::Adagrad({x}, O::AdagradOptions().lr_decay(-1)), torch::ValueError);
  torch::Tensor y = x * 2;
  EXPECT_THROW(O::SGD({y}, O::SGDOptions(0.1)), torch::ValueError);
  EXPECT_EQ(O::AdamWOptions().weight_decay(), 1e-2);
  EXPECT_EQ(O::AdamOptions().weight_decay(), 0);
}

TEST(OptimState, MaximizeAscends) {
  torch::Tensor x = torch::tensor({1.0, -2.0}).requires_grad_();
  O::Adam opt({x}, O::AdamOptions(0.1).maximize(true));
  for (int i = 0; i < 3; ++i) {
    opt.zero_grad();
    (x * x).sum().backward();
    opt.step();
  }
  EXPECT_GT(x[0].item<double>(), 1.0);
  EXPECT_LT(x[1].item<double>(), -2.0);
}

// A transposed (non-contiguous) float parameter takes the op path; it must agree with the fused
// kernel on a contiguous copy.
template <typename Opt, typename Options>
void check_fused_matches_ops(Options options) {
  torch::Tensor base = optim_test::formula(12, 0.4, 0.1, 1.0).to(torch::kFloat).reshape({3, 4});
  torch::Tensor a = base.t().requires_grad_();
  torch::Tensor b = base.t().contiguous().requires_grad_();
  ASSERT_FALSE(a.is_contiguous());
  Opt opt_a({a}, options);
  Opt opt_b({b}, options);
  for (int i = 0; i < 5; ++i) {
    for (auto* t : {&a, &b}) {
      t->mutable_grad().reset();
      (t->sin() * *t).sum().backward();
    }
    opt_a.step();
    opt_b.step();
  }
  EXPECT_TRUE(torch::allclose(a, b, 1e-6, 1e-6));
}

TEST(OptimState, FusedKernelsMatchTheOpPath) {
  check_fused_matches_ops<O::Adam>(O::AdamOptions(0.05).weight_decay(0.1).amsgrad(true));
  check_fused_matches_ops<O::AdamW>(O::AdamWOptions(0.05).maximize(true));
  check_fused_matches_ops<O::SGD>(
      O::SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(0.1));
  check_fused_matches_ops<O::SGD>(O::SGDOptions(0.05).momentum(0.5).dampening(0.2).maximize(true));
}

}  // namespace
