// Adagrad: accumulated squared gradients with lr decay, in place under NoGradGuard.
#include "brasa/optim/adagrad.h"

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "optim/closure.h"

namespace brasa::optim {

AdagradOptions::AdagradOptions(double lr) : lr_(lr) {}

void AdagradOptions::save(StateEntry& e) const {
  e.scalars["lr"] = lr();
  e.scalars["lr_decay"] = lr_decay();
  e.scalars["weight_decay"] = weight_decay();
  e.scalars["initial_accumulator_value"] = initial_accumulator_value();
  e.scalars["eps"] = eps();
  e.scalars["maximize"] = maximize();
}

void AdagradOptions::load(const StateEntry& e) {
  lr(e.scalars.at("lr"));
  lr_decay(e.scalars.at("lr_decay"));
  weight_decay(e.scalars.at("weight_decay"));
  initial_accumulator_value(e.scalars.at("initial_accumulator_value"));
  eps(e.scalars.at("eps"));
  maximize(e.scalars.at("maximize") != 0);
}

bool operator==(const AdagradOptions& a, const AdagradOptions& b) {
  return a.lr() == b.lr() && a.lr_decay() == b.lr_decay() && a.weight_decay() == b.weight_decay() &&
         a.initial_accumulator_value() == b.initial_accumulator_value() && a.eps() == b.eps() &&
         a.maximize() == b.maximize();
}

void AdagradParamState::save(StateEntry& e) const {
  e.scalars["step"] = static_cast<double>(step());
  e.tensors["sum"] = sum();
}

void AdagradParamState::load(const StateEntry& e) {
  step(static_cast<int64_t>(e.scalars.at("step")));
  sum(e.tensors.at("sum"));
}

Adagrad::Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdagradOptions>(defaults)) {
  BRASA_CHECK(defaults.lr() >= 0, "Adagrad: invalid learning rate: ", defaults.lr());
  BRASA_CHECK(defaults.lr_decay() >= 0, "Adagrad: invalid lr_decay value: ", defaults.lr_decay());
  BRASA_CHECK(defaults.weight_decay() >= 0,
              "Adagrad: invalid weight_decay value: ", defaults.weight_decay());
  BRASA_CHECK(
      defaults.initial_accumulator_value() >= 0,
      "Adagrad: invalid initial_accumulator_value value: ", defaults.initial_accumulator_value());
  BRASA_CHECK(defaults.eps() >= 0, "Adagrad: invalid epsilon value: ", defaults.eps());
  for (const auto& group : param_groups_) {
    const double init =
        static_cast<const AdagradOptions&>(group.options()).initial_accumulator_value();
    for (const auto& p : group.params()) {
      auto state = std::make_unique<AdagradParamState>();
      state->sum(full_like(p, init));
      state_[param_key(p)] = std::move(state);
    }
  }
}

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions defaults)
    : Adagrad(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor Adagrad::step(LossClosure closure) {
  Tensor loss = detail::run_closure(closure);
  NoGradGuard no_grad;
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdagradOptions&>(group.options());
    for (const auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto& slot = state_[param_key(p)];
      if (!slot) {
        auto fresh = std::make_unique<AdagradParamState>();
        fresh->sum(full_like(p, o.initial_accumulator_value()));
        slot = std::move(fresh);
      }
      auto& s = static_cast<AdagradParamState&>(*slot);
      s.step(s.step() + 1);
      Tensor grad = o.maximize() ? p.grad().neg() : p.grad();
      if (o.weight_decay() != 0) grad = grad.add(p, o.weight_decay());
      const double clr = o.lr() / (1 + static_cast<double>(s.step() - 1) * o.lr_decay());
      s.sum().add_(grad * grad);
      p.add_(grad / s.sum().sqrt().add_(o.eps()), -clr);
    }
  }
  return loss;
}

// Note [Optimizer instantiations]
template class OptimizerCloneableOptions<AdagradOptions>;
template class OptimizerCloneableParamState<AdagradParamState>;

std::vector<LegacyField> Adagrad::legacy_fields() const {
  return {{"sum_buffers", "sum", LegacyField::kPerParam},
          {"step_buffers", "step", LegacyField::kPerParamStep}};
}

std::unique_ptr<OptimizerParamState> Adagrad::make_param_state() const {
  return std::make_unique<AdagradParamState>();
}

}  // namespace brasa::optim
