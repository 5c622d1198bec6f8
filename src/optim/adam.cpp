// Adam and AdamW: constructors and step (the update lives in adam_update.cpp).
#include "brasa/optim/adam.h"

#include "brasa/optim/adamw.h"
#include "optim/adam_update.h"

namespace brasa::optim {

AdamOptions::AdamOptions(double lr) : lr_(lr) {}

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamOptions>(defaults)) {
  detail::check_adam_hyper(detail::adam_hyper(defaults, false), "Adam");
}

Adam::Adam(std::vector<Tensor> params, AdamOptions defaults)
    : Adam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor Adam::step(LossClosure closure) {
  return detail::adam_family_step<AdamOptions, AdamParamState>(*this, closure, false);
}

AdamWOptions::AdamWOptions(double lr) : lr_(lr) {}

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<AdamWOptions>(defaults)) {
  detail::check_adam_hyper(detail::adam_hyper(defaults, true), "AdamW");
}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions defaults)
    : AdamW(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor AdamW::step(LossClosure closure) {
  return detail::adam_family_step<AdamWOptions, AdamWParamState>(*this, closure, true);
}

// Note [Optimizer instantiations]
template class OptimizerCloneableOptions<AdamOptions>;
template class OptimizerCloneableParamState<AdamParamState>;
template class OptimizerCloneableOptions<AdamWOptions>;
template class OptimizerCloneableParamState<AdamWParamState>;

namespace {
// Note [Legacy optimizer archives]: Adam's and AdamW's buffers had the same names.
std::vector<LegacyField> adam_legacy_fields() {
  return {{"step_buffers", "step", LegacyField::kPerParamStep},
          {"exp_average_buffers", "exp_avg", LegacyField::kPerParam},
          {"exp_average_sq_buffers", "exp_avg_sq", LegacyField::kPerParam},
          {"max_exp_average_sq_buffers", "max_exp_avg_sq", LegacyField::kPerParam}};
}
}  // namespace

std::vector<LegacyField> Adam::legacy_fields() const { return adam_legacy_fields(); }
std::vector<LegacyField> AdamW::legacy_fields() const { return adam_legacy_fields(); }

std::unique_ptr<OptimizerParamState> Adam::make_param_state() const {
  return std::make_unique<AdamParamState>();
}

std::unique_ptr<OptimizerParamState> AdamW::make_param_state() const {
  return std::make_unique<AdamWParamState>();
}

}  // namespace brasa::optim
