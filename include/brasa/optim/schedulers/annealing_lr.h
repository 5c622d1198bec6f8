#pragma once
// Schedules that interpolate the learning rate: CosineAnnealingLR, LinearLR and OneCycleLR.

#include <optional>
#include <string>

#include "brasa/optim/schedulers/lr_scheduler.h"

namespace brasa::optim {

/// Cosine from the base lr down to eta_min over T_max epochs (then back up, periodically).
/// Throws ValueError when T_max is not positive.
class BRASA_API CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0);

 protected:
  std::vector<double> get_lrs() override;
  std::vector<double> get_closed_form_lrs() override;

 private:
  int64_t T_max_;
  double eta_min_;
};

/// Scales the base lr linearly from start_factor to end_factor over total_iters epochs (a warmup
/// when start_factor < 1). Throws ValueError for factors outside [0, 1] (start_factor > 0).
class BRASA_API LinearLR : public LRScheduler {
 public:
  LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
           int64_t total_iters = 5);

 protected:
  std::vector<double> get_lrs() override;
  std::vector<double> get_closed_form_lrs() override;

 private:
  double start_factor_, end_factor_;
  int64_t total_iters_;
};

/// The 1cycle policy (Smith): lr rises from max_lr/div_factor to max_lr over pct_start of
/// total_steps, then anneals to initial/final_div_factor; momentum (SGD/RMSprop momentum or
/// Adam's beta1) cycles inversely when cycle_momentum. Throws ValueError on bad arguments, when
/// stepped more than total_steps times, or when cycling momentum of an optimizer without one.
class BRASA_API OneCycleLR : public LRScheduler {
 public:
  OneCycleLR(Optimizer& optimizer, double max_lr, int64_t total_steps, double pct_start = 0.3,
             const std::string& anneal_strategy = "cos", bool cycle_momentum = true,
             double base_momentum = 0.85, double max_momentum = 0.95, double div_factor = 25.,
             double final_div_factor = 1e4, bool three_phase = false);

 protected:
  std::vector<double> get_lrs() override;

 private:
  struct Phase {
    double end_step;
    int start_lr, end_lr;  // 0 initial, 1 max, 2 min
    bool start_momentum_max, end_momentum_max;
  };
  double anneal(double start, double end, double pct) const;
  void set_momentum(size_t group, double momentum);

  int64_t total_steps_;
  bool cos_, cycle_momentum_;
  double base_momentum_, max_momentum_;
  std::vector<Phase> phases_;
  std::vector<double> initial_lr_, max_lr_, min_lr_;
};

}  // namespace brasa::optim
