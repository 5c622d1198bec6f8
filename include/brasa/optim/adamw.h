#pragma once
// AdamW (Loshchilov & Hutter): Adam with decoupled weight decay (the parameter shrinks by
// lr * weight_decay before the Adam update, default 1e-2) and the amsgrad variant.

#include <tuple>

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  using betas_t = std::tuple<double, double>;
  AdamWOptions(double lr = 1e-3);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr) = 1e-3;
  BRASA_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  BRASA_ARG(double, eps) = 1e-8;
  BRASA_ARG(double, weight_decay) = 1e-2;
  BRASA_ARG(bool, amsgrad) = false;
  BRASA_ARG(bool, maximize) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const AdamWOptions& a, const AdamWOptions& b);
};

struct BRASA_API AdamWParamState : public OptimizerCloneableParamState<AdamWParamState> {
  BRASA_ARG(int64_t, step) = 0;
  BRASA_ARG(Tensor, exp_avg);
  BRASA_ARG(Tensor, exp_avg_sq);
  BRASA_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<AdamWOptions>;
extern template class OptimizerCloneableParamState<AdamWParamState>;

class BRASA_API AdamW : public Optimizer {
 public:
  /// Throws ValueError on a negative lr/eps/weight_decay or betas outside [0, 1).
  explicit AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults = {});
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;
};

}  // namespace brasa::optim
