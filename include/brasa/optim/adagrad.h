#pragma once
// Adagrad with PyTorch's update rule: per-element sum of squared gradients (started at
// initial_accumulator_value when the optimizer is built), lr decay, L2 weight decay.

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr) = 1e-2;
  BRASA_ARG(double, lr_decay) = 0;
  BRASA_ARG(double, weight_decay) = 0;
  BRASA_ARG(double, initial_accumulator_value) = 0;
  BRASA_ARG(double, eps) = 1e-10;
  BRASA_ARG(bool, maximize) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const AdagradOptions& a, const AdagradOptions& b);
};

struct BRASA_API AdagradParamState : public OptimizerCloneableParamState<AdagradParamState> {
  BRASA_ARG(Tensor, sum);
  BRASA_ARG(int64_t, step) = 0;

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<AdagradOptions>;
extern template class OptimizerCloneableParamState<AdagradParamState>;

class BRASA_API Adagrad : public Optimizer {
 public:
  /// Throws ValueError on a negative lr, lr_decay, weight_decay, initial_accumulator_value or eps.
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;
};

}  // namespace brasa::optim
