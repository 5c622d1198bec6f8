#pragma once
// Stochastic gradient descent with PyTorch's momentum (the first step copies the gradient into
// the buffer), dampening, Nesterov momentum, L2 weight decay and maximize.

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr);
  BRASA_ARG(double, momentum) = 0;
  BRASA_ARG(double, dampening) = 0;
  BRASA_ARG(double, weight_decay) = 0;
  BRASA_ARG(bool, nesterov) = false;
  BRASA_ARG(bool, maximize) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const SGDOptions& a, const SGDOptions& b);
};

struct BRASA_API SGDParamState : public OptimizerCloneableParamState<SGDParamState> {
  BRASA_ARG(Tensor, momentum_buffer);

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<SGDOptions>;
extern template class OptimizerCloneableParamState<SGDParamState>;

class BRASA_API SGD : public Optimizer {
 public:
  /// Throws ValueError on negative lr/momentum/weight_decay, or nesterov without momentum or
  /// with dampening.
  explicit SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;
};

}  // namespace brasa::optim
