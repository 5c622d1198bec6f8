// RMSprop: square average, optional centering and momentum, in place under NoGradGuard.
#include "brasa/optim/rmsprop.h"

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "optim/closure.h"

namespace brasa::optim {

RMSpropOptions::RMSpropOptions(double lr) : lr_(lr) {}

void RMSpropOptions::save(StateEntry& e) const {
  e.scalars["lr"] = lr();
  e.scalars["alpha"] = alpha();
  e.scalars["eps"] = eps();
  e.scalars["weight_decay"] = weight_decay();
  e.scalars["momentum"] = momentum();
  e.scalars["centered"] = centered();
  e.scalars["maximize"] = maximize();
}

void RMSpropOptions::load(const StateEntry& e) {
  lr(e.scalars.at("lr"));
  alpha(e.scalars.at("alpha"));
  eps(e.scalars.at("eps"));
  weight_decay(e.scalars.at("weight_decay"));
  momentum(e.scalars.at("momentum"));
  centered(e.scalars.at("centered") != 0);
  maximize(e.scalars.at("maximize") != 0);
}

bool operator==(const RMSpropOptions& a, const RMSpropOptions& b) {
  return a.lr() == b.lr() && a.alpha() == b.alpha() && a.eps() == b.eps() &&
         a.weight_decay() == b.weight_decay() && a.momentum() == b.momentum() &&
         a.centered() == b.centered() && a.maximize() == b.maximize();
}

void RMSpropParamState::save(StateEntry& e) const {
  e.scalars["step"] = static_cast<double>(step());
  e.tensors["square_avg"] = square_avg();
  if (momentum_buffer().defined()) e.tensors["momentum_buffer"] = momentum_buffer();
  if (grad_avg().defined()) e.tensors["grad_avg"] = grad_avg();
}

void RMSpropParamState::load(const StateEntry& e) {
  step(static_cast<int64_t>(e.scalars.at("step")));
  square_avg(e.tensors.at("square_avg"));
  auto buf = e.tensors.find("momentum_buffer");
  momentum_buffer(buf != e.tensors.end() ? buf->second : Tensor());
  auto avg = e.tensors.find("grad_avg");
  grad_avg(avg != e.tensors.end() ? avg->second : Tensor());
}

RMSprop::RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<RMSpropOptions>(defaults)) {
  BRASA_CHECK(defaults.lr() >= 0, "RMSprop: invalid learning rate: ", defaults.lr());
  BRASA_CHECK(defaults.eps() >= 0, "RMSprop: invalid epsilon value: ", defaults.eps());
  BRASA_CHECK(defaults.momentum() >= 0, "RMSprop: invalid momentum value: ", defaults.momentum());
  BRASA_CHECK(defaults.weight_decay() >= 0,
              "RMSprop: invalid weight_decay value: ", defaults.weight_decay());
  BRASA_CHECK(defaults.alpha() >= 0, "RMSprop: invalid alpha value: ", defaults.alpha());
}

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions defaults)
    : RMSprop(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor RMSprop::step(LossClosure closure) {
  Tensor loss = detail::run_closure(closure);
  NoGradGuard no_grad;
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const RMSpropOptions&>(group.options());
    for (const auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = o.maximize() ? p.grad().neg() : p.grad();
      auto& slot = state_[param_key(p)];
      if (!slot) {
        auto fresh = std::make_unique<RMSpropParamState>();
        fresh->square_avg(zeros_like(p));
        slot = std::move(fresh);
      }
      auto& s = static_cast<RMSpropParamState&>(*slot);
      if (o.momentum() > 0 && !s.momentum_buffer().defined()) s.momentum_buffer(zeros_like(p));
      if (o.centered() && !s.grad_avg().defined()) s.grad_avg(zeros_like(p));
      s.step(s.step() + 1);
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      s.square_avg().mul_(o.alpha()).add_(grad * grad, 1 - o.alpha());
      Tensor avg;
      if (o.centered()) {
        s.grad_avg().mul_(o.alpha()).add_(grad, 1 - o.alpha());
        avg = s.square_avg().sub(s.grad_avg() * s.grad_avg()).sqrt_();
      } else {
        avg = s.square_avg().sqrt();
      }
      avg.add_(o.eps());
      if (o.momentum() > 0) {
        s.momentum_buffer().mul_(o.momentum()).add_(grad / avg);
        p.add_(s.momentum_buffer(), -o.lr());
      } else {
        p.add_(grad / avg, -o.lr());
      }
    }
  }
  return loss;
}

// Note [Optimizer instantiations]
template class OptimizerCloneableOptions<RMSpropOptions>;
template class OptimizerCloneableParamState<RMSpropParamState>;

std::vector<LegacyField> RMSprop::legacy_fields() const {
  return {{"square_average_buffers", "square_avg", LegacyField::kPerParam},
          {"momentum_buffers", "momentum_buffer", LegacyField::kPerParam},
          {"grad_average_buffers", "grad_avg", LegacyField::kPerParam}};
}

std::unique_ptr<OptimizerParamState> RMSprop::make_param_state() const {
  return std::make_unique<RMSpropParamState>();
}

}  // namespace brasa::optim
