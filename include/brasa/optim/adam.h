#pragma once
// Adam (Kingma & Ba), with PyTorch's update rule, L2 weight decay added to the gradient and the
// amsgrad variant. Steps run one fused pass per contiguous float/double parameter.

#include <tuple>

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  using betas_t = std::tuple<double, double>;
  AdamOptions(double lr = 1e-3);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr) = 1e-3;
  BRASA_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  BRASA_ARG(double, eps) = 1e-8;
  BRASA_ARG(double, weight_decay) = 0;
  BRASA_ARG(bool, amsgrad) = false;
  BRASA_ARG(bool, maximize) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const AdamOptions& a, const AdamOptions& b);
};

struct BRASA_API AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  BRASA_ARG(int64_t, step) = 0;
  BRASA_ARG(Tensor, exp_avg);
  BRASA_ARG(Tensor, exp_avg_sq);
  BRASA_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<AdamOptions>;
extern template class OptimizerCloneableParamState<AdamParamState>;

class BRASA_API Adam : public Optimizer {
 public:
  /// Throws ValueError on a negative lr/eps/weight_decay or betas outside [0, 1).
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;
};

}  // namespace brasa::optim
