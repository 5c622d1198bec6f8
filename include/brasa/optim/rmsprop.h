#pragma once
// RMSprop with PyTorch's update rule: smoothing constant alpha, optional momentum buffer,
// centered variant (subtracts the squared running mean of gradients), L2 weight decay.

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr) = 1e-2;
  BRASA_ARG(double, alpha) = 0.99;
  BRASA_ARG(double, eps) = 1e-8;
  BRASA_ARG(double, weight_decay) = 0;
  BRASA_ARG(double, momentum) = 0;
  BRASA_ARG(bool, centered) = false;
  BRASA_ARG(bool, maximize) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const RMSpropOptions& a, const RMSpropOptions& b);
};

struct BRASA_API RMSpropParamState : public OptimizerCloneableParamState<RMSpropParamState> {
  BRASA_ARG(int64_t, step) = 0;
  BRASA_ARG(Tensor, square_avg);
  BRASA_ARG(Tensor, momentum_buffer) = {};
  BRASA_ARG(Tensor, grad_avg) = {};

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<RMSpropOptions>;
extern template class OptimizerCloneableParamState<RMSpropParamState>;

class BRASA_API RMSprop : public Optimizer {
 public:
  /// Throws ValueError on a negative lr, eps, momentum, weight_decay or alpha.
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults = {});
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;
};

}  // namespace brasa::optim
